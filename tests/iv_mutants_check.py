"""Issue 13 item 3: re-check that tests/test_engine_iv_mutants.py kills each hand mutation.

Not collected by pytest (no ``test_`` prefix). Run from the repository root with the project's
venv: ``python tests/iv_mutants_check.py [label ...]``. Each mutation is one exact text
replacement in an engine module; the file is restored afterwards whatever happens. Prints
``killed`` / ``SURVIVED`` per mutation and test; exit status = number of problems. It edits
engine files while it runs, so run nothing else in the same checkout meanwhile; after a
refactor of the engine a pattern may no longer match (reported as a problem, not a kill).
"""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
T = "tests/test_engine_iv_mutants.py::"
M = [
 ("chopper dest check", "engine/movegen.py",
  "                    if not self.enter(movers, r, c, lv, capture=True):\n                        continue\n                    move = Move(describe(self.state, p)",
  "                    move = Move(describe(self.state, p)",
  ["test_chopper_move_onto_a_full_cell_is_not_legal_01_R5_1", "test_chopper_with_passenger_onto_a_cell_with_one_piece_01_R5_1"]),
 ("_group_ok side", "engine/movegen.py",
  "if len(group) > 2 or len({x.side for x in group}) > 1:", "if len(group) > 2:",
  ["test_nudge_may_not_land_friend_beside_enemy_03_M1_3_6"]),
 ("shift_ok side", "engine/movegen.py",
  "if n == 2 and (everyone[0].side != everyone[1].side or not (", "if n == 2 and (False or not (",
  ["test_nudge_stalls_on_a_hidden_enemy_beside_a_member_RUL_45_03_M1_3_6"]),
 ("nudge off-board filter", "engine/movegen.py",
  "usable = [(sq, ms) for sq, ms in squares if on_board(sq[0] + dr, sq[1] + dc)]", "usable = list(squares)",
  ["test_nudge_members_never_land_off_the_board_RUL_26"]),
 ("routes airs key", "engine/moveplan.py",
  "        return (airs, squares, [0 if", "        return (0, squares, [0 if",
  ["test_chopper_routes_fewest_air_cells_first_RUL_44"]),
 ("routes airs counts Ground", "engine/moveplan.py",
  "        airs = sum(1 for cell in route if cell[2] == AIR)\n        squares", "        airs = sum(1 for cell in route if cell[2] == GROUND)\n        squares",
  ["test_chopper_routes_fewest_air_cells_first_RUL_44"]),
 ("routes3 airs key", "engine/movetypes.py",
  "        return (airs, mids,", "        return (0, mids,",
  ["test_chopper_three_step_routes_fewest_air_cells_first_RUL_44"]),
 ("swap loop off", "engine/rules.py", "                if r.sid > g.sid:", "                if False:",
  ["test_two_way_swap_exchange_offered_once_and_applied_01_R10_10"]),
 ("swap loop reversed", "engine/rules.py", "                if r.sid > g.sid:", "                if r.sid < g.sid:",
  ["test_two_way_swap_exchange_offered_once_and_applied_01_R10_10"]),
 ("_swap_ok or->and", "engine/rules.py",
  "    if not _fits(state, giver, g_arts) or not _fits(state, receiver, r_arts):\n        return False",
  "    if not _fits(state, giver, g_arts) and not _fits(state, receiver, r_arts):\n        return False",
  ["test_swap_refused_when_only_the_giver_would_be_over_RUL_28", "test_swap_refused_when_only_the_receiver_would_be_over_RUL_28"]),
 ("_check_exchange or->and", "engine/rules.py",
  "    if not _fits(state, giver, g_arts) or not _fits(state, receiver, r_arts):\n        raise RuleError(\"RUL-28\"",
  "    if not _fits(state, giver, g_arts) and not _fits(state, receiver, r_arts):\n        raise RuleError(\"RUL-28\"",
  ["test_swap_refused_when_only_the_giver_would_be_over_RUL_28", "test_swap_refused_when_only_the_receiver_would_be_over_RUL_28"]),
 ("_check_reinforce None", "engine/rules.py",
  "    if waiting is None or waiting[0] != side:\n        raise", "    if waiting is not None and waiting[0] != side:\n        raise",
  ["test_vacated_square_without_a_reinforcement_RUL_34"]),
 ("track_leave any square", "engine/board_ops.py",
  "    for sq, sids in state.turn.watch:\n        if sq == p.square and p.sid in sids:\n            state.turn = replace(state.turn, vacated=state.turn.vacated | {sq})",
  "    state.turn = replace(state.turn, vacated=state.turn.vacated | {p.square})",
  ["test_vacated_square_without_a_reinforcement_RUL_34"]),
 ("begin_turn owner", "engine/rules.py", "        if owner == side:\n", "        if owner or side:\n",
  ["test_vacated_square_of_an_enemy_reinforcement_RUL_34"]),
 ("dumps if not order", "engine/history.py", "        if order:\n", "        if not order:\n",
  ["test_save_writes_the_played_order_when_it_differs_04_H3"]),
 ("dumps no order write", "engine/history.py", "            lines.append(ORDER + order)\n", "            pass\n",
  ["test_save_writes_the_played_order_when_it_differs_04_H3"]),
 ("finish_line ==", "engine/game_end.py", "if tags != printed else", "if tags == printed else",
  ["test_save_writes_the_played_order_when_it_differs_04_H3"]),
 ("loads ignores #order", "engine/history.py", "            if i < len(body) and body[i].startswith(ORDER):", "            if False:",
  ["test_save_writes_the_played_order_when_it_differs_04_H3"]),
 ("trip_path sr", "engine/fire.py", "    sr, sc = (dr > 0) - (dr < 0), (dc > 0) - (dc < 0)", "    sr, sc = (dr > 0) - (dr <= 0), (dc > 0) - (dc < 0)",
  ["test_same_row_trips_go_straight_along_the_row_RUL_31"]),
 ("trip_path sc", "engine/fire.py", "    sr, sc = (dr > 0) - (dr < 0), (dc > 0) - (dc < 0)", "    sr, sc = (dr > 0) - (dr < 0), (dc > 0) - (dc <= 0)",
  ["test_same_row_trips_go_straight_along_the_row_RUL_31"]),
 ("trip_shapes m==n", "engine/fire.py", "    if m == 0 or m == n:\n        return [\"\"]", "    if m == n:\n        return [\"\"]",
  ["test_same_row_trips_go_straight_along_the_row_RUL_31"]),
 ("take-off arrival_hits", "engine/fire.py",
  "                     trip=(plan.aids[0], level, state.ply, state.turn.fires, path))\n    arrival_hits(state, [p.sid])",
  "                     trip=(plan.aids[0], level, state.ply, state.turn.fires, path))",
  ["test_rising_into_a_projectile_cell_is_hit_RUL_31_RUL_15"]),
 ("stun rule RUL-30", "engine/fire.py", 'return "RUL-11", "a stunned piece', 'return "RUL-30", "a stunned piece',
  ["test_stunned_piece_firing_a_transport_names_RUL_11"]),
 ("stun test deleted", "engine/fire.py", '    if p.stun > 0:\n        return "RUL-11", "a stunned piece cannot fire a transport article (RUL-11)"\n', '',
  ["test_stunned_piece_firing_a_transport_names_RUL_11"]),
 ("trip test deleted", "engine/fire.py", '    if p.trip is not None:\n        return "RUL-30", "the piece is already on a trip (RUL-30)"\n', '',
  ["test_traveller_may_not_start_a_second_trip_RUL_30"]),
 ("step_all new moves", "engine/projectiles.py",
  "            if p.created == state.ply:\n                stepped.append(p)\n                continue\n", "",
  ["test_new_projectile_waits_while_an_older_one_steps_RUL_15"]),
 ("joint strength first only", "engine/effects.py", "strength = sum(p.strength for p in here)", "strength = here[0].strength",
  ["test_both_sides_projectiles_in_one_cell_hit_together_RUL_46"]),
 ("joint one side only", "engine/effects.py",
  "        here = [p for p in state.projectiles if (p.row, p.col, p.level) == cell]\n",
  "        here = [p for p in state.projectiles if (p.row, p.col, p.level) == cell]\n        here = [p for p in here if p.side == here[0].side]\n",
  ["test_both_sides_projectiles_in_one_cell_hit_together_RUL_46"]),
 ("lock level key dropped", "engine/visibility.py", "                              LEVEL_ORDER[p.level], p.sid))", "                              p.sid))",
  ["test_lock_order_ground_before_air_in_one_square_RUL_19"]),
 ("lock level before rank", "engine/visibility.py",
  "(distance(p.square, square), p.row, p.col,\n                              LEVEL_ORDER[p.level], p.sid))",
  "(distance(p.square, square), LEVEL_ORDER[p.level], p.row, p.col,\n                              p.sid))",
  ["test_lock_order_rank_before_level_RUL_19"]),
 ("non-action raise deleted", "engine/rules.py", '        raise RuleError("01/R4.8", f"not an action: {action!r}")', "        pass",
  ["test_apply_action_refuses_a_non_action_01_R4_8"]),
 ("non-action rule id", "engine/rules.py", 'raise RuleError("01/R4.8", f"not an action', 'raise RuleError("01/R4.2", f"not an action',
  ["test_apply_action_refuses_a_non_action_01_R4_8"]),
]
only = sys.argv[1:]
bad = 0
for label, f, old, new, tests in M:
    if only and label not in only:
        continue
    path = ROOT / f
    orig = path.read_text()
    if orig.count(old) != 1:
        print(f"!! {label}: pattern found {orig.count(old)} times"); bad += 1; continue
    try:
        path.write_text(orig.replace(old, new))
        for t in tests:
            r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", T + t],
                               cwd=ROOT, capture_output=True, text=True)
            ok = r.returncode != 0
            print(f"{'killed' if ok else 'SURVIVED'}: {label} by {t}")
            bad += not ok
    finally:
        path.write_text(orig)
print("problems:", bad)
sys.exit(bad)
