"""The project's own piece art (ui/art.py): piece sets of 04/U24, colours of 04/U44, hands of
03/M0.3, articles, projectiles and badges; headless (SDL dummy driver, no window needed).

"Differ substantially" is measured as a viewer sees it: each picture is laid on mid grey and a
pixel counts as different when its luminance differs by more than a quarter of the range (64
of 255). Thresholds, as a share of the square: two pawns (one shape by design, told apart by
their emblem) differ in at least 4%, which at 24 px is 23 pixels, a 5 x 5 patch, a third of the
emblem's stroke area; any other two kinds differ in at least 7% (40 pixels at 24 px; King and
Queen, which like every chess set's differ only in the head, are the closest pair at about
8-10%); a handed piece and its mirror image differ in at least 15%.
"""
from __future__ import annotations

import itertools
import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from engine.pieces import ARTICLES, DEFENCES, KINDS
from ui import art, theme

PAWNS = frozenset({"RP", "FP", "SP", "CP", "SOP", "XP", "SHP"})
SIZES = {"simple": 24, "detailed": 48}


@pytest.fixture(autouse=True)
def pg() -> Iterator[None]:
    pygame.init()
    yield
    pygame.quit()


def lum(img: pygame.Surface) -> list[float]:
    """Luminance (0..255) of every pixel of ``img`` laid on mid grey."""
    b = pygame.image.tobytes(img, "RGBA")
    out = []
    for i in range(0, len(b), 4):
        f = b[i + 3] / 255
        out.append((0.299 * b[i] + 0.587 * b[i + 1] + 0.114 * b[i + 2]) * f + 128 * (1 - f))
    return out


def differ(a: list[float], b: list[float]) -> float:
    """Share of pixels whose luminance differs by more than 64."""
    return sum(abs(x - y) > 64 for x, y in zip(a, b, strict=True)) / len(a)


def opaque_share(img: pygame.Surface) -> float:
    w, h = img.get_size()
    return pygame.mask.from_surface(img, 127).count() / (w * h)


def test_every_kind_of_the_engine_has_a_picture() -> None:
    """04/U24: the art covers exactly the engine's 23 piece types and 18 article types."""
    assert set(art.KIND_ORDER) == set(KINDS) and len(art.KIND_ORDER) == 23
    assert set(art.ARTICLE_ORDER) == set(ARTICLES) and len(art.ARTICLE_ORDER) == 18
    assert art.HANDED == {k for k, info in KINDS.items() if info.handed}


@pytest.mark.parametrize("piece_set", art.SETS)
def test_every_kind_side_level_gives_a_filled_square_picture(piece_set: str) -> None:
    """04/U24 both sets, 04/U44 both sides and three levels: a surface of the asked size with
    alpha, a solid silhouette (at least 15% opaque) and a transparent corner."""
    for size in (20, 28) if piece_set == "simple" else (40, 60):
        for kind, side, level in itertools.product(art.KIND_ORDER, "BW", "GAS"):
            img = art.piece_image(kind, side, level, ">", size, piece_set)
            assert img.get_size() == (size, size), (kind, side, level, size)
            assert img.get_flags() & pygame.SRCALPHA
            assert opaque_share(img) >= 0.15, (kind, side, level, size, opaque_share(img))
            assert img.get_at((0, 0)).a == 0


@pytest.mark.parametrize("piece_set", art.SETS)
def test_pieces_are_filled_with_their_side_and_level_colour(piece_set: str) -> None:
    """04/U44: Air pieces dark blue for Black and lighter blue for White, Sub green likewise,
    Ground black and white: the commonest opaque colour of each picture is
    theme.PIECE_FILL[side, level], and its outline colour theme.PIECE_TEXT[side] is there too."""
    size = SIZES[piece_set]
    for kind, side, level in itertools.product(art.KIND_ORDER, "BW", "GAS"):
        img = art.piece_image(kind, side, level, "", size, piece_set)
        counts: dict[tuple[int, int, int], int] = {}
        for y in range(size):
            for x in range(size):
                c = img.get_at((x, y))
                if c.a == 255:
                    counts[c.r, c.g, c.b] = counts.get((c.r, c.g, c.b), 0) + 1
        fill, line = theme.PIECE_FILL[side, level], theme.PIECE_TEXT[side]
        top = max(counts, key=counts.__getitem__)
        assert top in (fill, line), (kind, side, level, top)
        near_fill = sum(n for c, n in counts.items() if _close(c, fill))
        near_line = sum(n for c, n in counts.items() if _close(c, line))
        assert near_fill >= 0.04 * size * size, (kind, side, level, near_fill)
        assert near_line >= 0.04 * size * size, (kind, side, level, near_line)


def _close(c: tuple[int, int, int], ref: tuple[int, int, int], tol: int = 16) -> bool:
    return max(abs(c[0] - ref[0]), abs(c[1] - ref[1]), abs(c[2] - ref[2])) <= tol


@pytest.mark.parametrize("piece_set", art.SETS)
def test_every_two_kinds_differ_substantially(piece_set: str) -> None:
    """04/U24: each piece type is recognisable and distinct from every other, for both sides
    and every level tint (thresholds and their reasons in the module docstring)."""
    size = SIZES[piece_set]
    for side, level in itertools.product("BW", "GAS"):
        pics = {k: lum(art.piece_image(k, side, level, ">", size, piece_set))
                for k in art.KIND_ORDER}
        for a, b in itertools.combinations(art.KIND_ORDER, 2):
            floor = 0.04 if a in PAWNS and b in PAWNS else 0.07
            share = differ(pics[a], pics[b])
            assert share >= floor, (piece_set, side, level, a, b, share)


@pytest.mark.parametrize("piece_set", art.SETS)
def test_handed_pieces_face_their_hand(piece_set: str) -> None:
    """03/M0.3, 04/U44 "the tank's picture faces left or right": a left (<) Tank, Cleric or
    Chopper is exactly the mirror image of the right (>) one and clearly differs from it; no
    hand draws the right one; other kinds ignore the hand."""
    size = SIZES[piece_set]
    for kind, side, level in itertools.product(sorted(art.HANDED), "BW", "GAS"):
        right = art.piece_image(kind, side, level, ">", size, piece_set)
        left = art.piece_image(kind, side, level, "<", size, piece_set)
        mirrored = pygame.transform.flip(right, True, False)
        assert pygame.image.tobytes(left, "RGBA") == pygame.image.tobytes(mirrored, "RGBA")
        assert differ(lum(left), lum(right)) >= 0.15, (kind, side, level)
        plain = art.piece_image(kind, side, level, "", size, piece_set)
        assert pygame.image.tobytes(plain, "RGBA") == pygame.image.tobytes(right, "RGBA")
    for kind in ("K", "JE", "RP"):
        assert art.piece_image(kind, "B", "G", "<", size, piece_set) is \
            art.piece_image(kind, "B", "G", "", size, piece_set)


def test_pictures_are_cached_and_unknown_names_are_refused() -> None:
    """Generated once (issue 12 item 7: a frame only blits); bad names raise KeyError."""
    assert art.piece_image("TA", "W", "A", "<", 32) is art.piece_image("TA", "W", "A", "<", 32)
    assert art.article_icon("FL", 16) is art.article_icon("FL", 16)
    for bad in (lambda: art.piece_image("ZZ", "B"), lambda: art.piece_image("K", "X"),
                lambda: art.piece_image("K", "B", "Q"), lambda: art.piece_image("K", "B", "G",
                                                                               "", 24, "fancy"),
                lambda: art.article_icon("ZZ")):
        with pytest.raises(KeyError):
            bad()


def test_preload_makes_every_picture_of_a_size() -> None:
    """04/U24: a set is generated at start (20 kinds x 2 sides x 3 levels, and the 3 handed
    kinds in both hands: 156 pictures), after which drawing only looks them up."""
    art.clear_cache()
    assert art.preload(26, "detailed") == 20 * 6 + 3 * 6 * 2
    first = art.piece_image("CH", "W", "S", "<", 26, "detailed")
    art.preload(26, "detailed")
    assert art.piece_image("CH", "W", "S", "<", 26, "detailed") is first


def test_pictures_are_the_same_with_a_window_open() -> None:
    """With a display mode set, cached pictures are converted for fast blits (issue 12 item 7)
    and keep exactly the same pixels."""
    art.clear_cache()
    before = [pygame.image.tobytes(art.piece_image(k, "W", "A", "<", 24), "RGBA")
              for k in ("TA", "AV", "SOP")]
    pygame.display.set_mode((64, 64))
    art.clear_cache()
    after = [pygame.image.tobytes(art.piece_image(k, "W", "A", "<", 24), "RGBA")
             for k in ("TA", "AV", "SOP")]
    assert before == after


def test_ghost_is_the_piece_see_through() -> None:
    """04/U29: the last-seen marker is the piece's own picture, see-through."""
    solid = art.piece_image("SHP", "W", "G", "", 40, "detailed")
    ghost = art.ghost_image("SHP", "W", "G", "", 40, "detailed", alpha=90)
    assert ghost.get_size() == solid.get_size()
    for pos in ((20, 20), (20, 30), (10, 34)):
        s, g = solid.get_at(pos), ghost.get_at(pos)
        assert (g.r, g.g, g.b) == (s.r, s.g, s.b)
        assert abs(g.a - s.a * 90 / 255) <= 1


def test_article_icons_all_sizes_and_distinct() -> None:
    """Every article type (04/H9c tokens, JU read as JP) has an opaque icon at 12-20 px, and
    every two differ in at least 5% of their pixels."""
    for size in (12, 16, 20):
        for code in art.ARTICLE_ORDER:
            img = art.article_icon(code, size)
            assert img.get_size() == (size, size)
            assert opaque_share(img) >= 0.7, (code, size)
    assert art.article_icon("JU", 16) is art.article_icon("JP", 16)
    pics = {c: lum(art.article_icon(c, 16)) for c in art.ARTICLE_ORDER}
    for a, b in itertools.combinations(art.ARTICLE_ORDER, 2):
        assert differ(pics[a], pics[b]) >= 0.05, (a, b)


def _near(c: pygame.Color, ref: tuple[int, int, int], tol: int = 24) -> bool:
    return max(abs(c.r - ref[0]), abs(c.g - ref[1]), abs(c.b - ref[2])) <= tol


def test_defences_hold_their_weapon() -> None:
    """G26-G31: each defence icon shows its weapon: the weapon's own colour covers a visible
    part of both icons, and of the defence at least a fifth as much as of the weapon."""
    from ui.art_glyphs import colour_ink
    size = 20
    for defence, weapon in DEFENCES.items():
        colour = colour_ink(weapon).main
        w, d = art.article_icon(weapon, size), art.article_icon(defence, size)
        nw = sum(_near(w.get_at((x, y)), colour) for x in range(size) for y in range(size))
        nd = sum(_near(d.get_at((x, y)), colour) for x in range(size) for y in range(size))
        assert nw >= 10 and nd >= max(4, nw // 5), (defence, nw, nd)


def _red_centre(img: pygame.Surface) -> tuple[float, float]:
    pts = [(x, y) for x in range(img.get_width()) for y in range(img.get_height())
           if _near(img.get_at((x, y)), theme.PROJECTILE, 40) and img.get_at((x, y)).a > 200]
    assert pts
    return sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts)


def test_projectile_arrow_points_its_way_in_each_view() -> None:
    """RUL-15 directions on screen (ui/layout.py: Black sees row 1 at the bottom, White's view
    is turned 180°): the red arrowhead lies on the side the projectile travels to."""
    size = 32
    cases = [((1, 0), "B", "up"), ((1, 0), "W", "down"), ((0, 1), "B", "right"),
             ((0, 1), "W", "left"), ((-1, -1), "B", "down-left")]
    for kind in "RST":
        for (dr, dc), viewer, where in cases:
            x, y = _red_centre(art.projectile_icon(kind, "B", dr, dc, size, viewer))
            want = {"up": y < 12, "down": y > 20, "right": x > 20, "left": x < 12,
                    "down-left": x < 14 and y > 18}[where]
            assert want, (kind, dr, dc, viewer, x, y)
    img = art.projectile_icon("T", "W", 0, 1, size)
    assert img.get_size() == (size, size) and opaque_share(img) >= 0.15


def test_projectiles_are_tinted_by_their_level() -> None:
    """04/U44 tints: a Rocket (Ground), SAM (Air) and Torpedo (Sub) show their side's level fill."""
    for kind, level in (("R", "G"), ("S", "A"), ("T", "S")):
        for side in "BW":
            img = art.projectile_icon(kind, side, 0, 1, 40)
            fill = theme.PIECE_FILL[side, level]
            assert sum(_near(img.get_at((x, y)), fill, 6) for x in range(40) for y in range(40)) \
                >= 30, (kind, side)


def test_wcag_contrast_formula() -> None:
    """The WCAG 2 formula used below: black on white is 21:1, a colour on itself 1:1."""
    assert art.contrast_ratio((0, 0, 0), (255, 255, 255)) == pytest.approx(21.0)
    assert art.contrast_ratio((120, 170, 255), (120, 170, 255)) == pytest.approx(1.0)
    assert art.contrast_ratio((255, 230, 0), (250, 250, 250)) < 1.5   # the bug


@pytest.mark.parametrize("colour", [art.STUN_COLOUR, art.RATE_COLOUR])
def test_badges_read_on_every_piece_colour(colour: tuple[int, int, int]) -> None:
    """04/U44 (issue 12: "the yellow stun counter invisible on White's tokens"): a badge's text
    stands on its dark body at >= 4.5:1, and on every fill of both sides either the body or the
    light rim meets the fill at >= 4.5:1, measured on the rendered pixels."""
    for size in (12, 16, 22):
        img = art.badge("3", size, colour)
        w, h = img.get_size()
        assert h == size and w >= size
        rim = img.get_at((w // 2, 0))
        body = img.get_at((max(2, size // 4), h // 2))
        text = [img.get_at((x, y)) for x in range(w) for y in range(h)
                if _near(img.get_at((x, y)), colour, 8)]
        assert len(text) >= 3, size
        assert art.contrast_ratio(colour, body[:3]) >= 4.5
        for fill in theme.PIECE_FILL.values():
            best = max(art.contrast_ratio(rim[:3], fill), art.contrast_ratio(body[:3], fill))
            assert best >= 4.5, (size, fill, best)


def test_contact_sheet_command_writes_a_png(tmp_path: Path) -> None:
    """``python -m ui.art --sheet FILE`` writes every piece, article and projectile as a PNG."""
    out = tmp_path / "sheet.png"
    assert art.main(["--sheet", str(out), "--simple", "20", "--detailed", "40"]) == 0
    img = pygame.image.load(str(out))
    assert img.get_width() > 400 and img.get_height() > 23 * 40
