"""The lobby's model: PEERS and ME as values, and why nothing may show up (04/U59; issue 9 item 2).

``peers_snapshot`` turns what discovery sees and what the peer store remembers into
``LobbyPeer`` values; ``diagnose`` explains an empty lobby from this laptop's interfaces
(the reasons users of LocalSend, KDE Connect and Syncthing hit: anchors-mission §1.1-§1.3).
"""
from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Sequence

import ifaddr

from net.discovery import PeerInfo, suitable_addresses
from net.frontend import Diagnosis, LobbyPeer, Reason
from net.peer_names import mark
from net.peers import KnownPeer

#: interface name prefixes of VPNs, containers and virtual machines: mDNS there reaches no laptop
VIRTUAL_PREFIXES = ("docker", "br-", "veth", "virbr", "vboxnet", "vmnet", "tun", "tap", "wg", "zt",
                    "tailscale", "utun", "lxc", "lxd", "podman", "cni", "flannel", "vEthernet")


def peers_snapshot(seen: Iterable[PeerInfo], pins: Iterable[KnownPeer], own_fp: str) -> tuple[LobbyPeer, ...]:
    """PEERS as the lobby lists them: "in a game" (advertised as playing), "paired" or "new",
    with the marks of ``net.peer_names`` (a shared name; a pinned peer's name on another identity)."""
    games = [p for p in seen if p.fingerprint != own_fp]   # another window of this installation: not an opponent
    pins = list(pins)
    paired = {p.fingerprint for p in pins}
    out = []
    for m in mark(games, pins):
        p = m.peer
        state = "in a game" if p.status == "playing" else "paired" if p.fingerprint in paired else "new"
        out.append(LobbyPeer(p.instance, p.name, p.fingerprint, state, p.status == "hosting" and p.port > 0,
                             f"{p.host}:{p.port}", m.duplicate, m.not_pinned_as))
    return tuple(sorted(out, key=lambda q: (q.name, q.key)))


def local_interfaces() -> list[tuple[str, str]]:
    """(interface name, IPv4 address) of the up, non-loopback interfaces discovery would use."""
    usable = set(suitable_addresses())
    found = {(a.nice_name, ip.ip) for a in ifaddr.get_adapters() for ip in a.ips
             if ip.is_IPv4 and isinstance(ip.ip, str) and ip.ip in usable}
    return sorted(found, key=lambda pair: (ipaddress.IPv4Address(pair[1]), pair[0]))


def diagnose(interfaces: Sequence[tuple[str, str]], port: int = 0) -> Diagnosis:
    """Why no other game shows up, most likely first, each with what to do."""
    addresses = tuple(dict.fromkeys(ip for _, ip in interfaces))
    example = f"{addresses[0]}:{port or 41000}" if addresses else "192.168.1.20:41000"
    if not addresses:
        return Diagnosis((), port, (
            Reason("this laptop is on no network", "join the WiFi, or start a hotspot on one laptop (or a phone) "
                                                   "and join it with the other (docs/network.md)"),))
    reasons = [Reason("the WiFi blocks multicast (mDNS), as hotel, guest and cafe networks often do",
                      f"type this laptop's address on the other one (its host:port field), e.g. {example}"
                      + ("" if port else "; host the game first to get a port"))]
    virtual = [name for name, _ in interfaces if name.startswith(VIRTUAL_PREFIXES)]
    if virtual or len(addresses) > 1:
        what = f" ({', '.join(sorted(set(virtual)))} look like a VPN or virtual adapter)" if virtual else ""
        reasons.append(Reason(f"the wrong interface: this laptop has several networks{what}",
                              "make sure both laptops are on the same WiFi and that the other one's address starts "
                              f"like one of {', '.join(addresses)}; turn a VPN off, or start with --interface ADDRESS"))
    else:
        reasons.append(Reason("the two laptops are on different networks",
                              f"check that the other laptop's address is on the same network as {addresses[0]}"))
    reasons.append(Reason("client isolation: the access point keeps its guests apart",
                          "then typing an address does not help either: start a hotspot on one laptop (or a phone) "
                          "and join it with the other; laptop hotspots do not isolate (docs/network.md)"))
    reasons.append(Reason("a firewall drops mDNS (UDP 5353) or the game port",
                          "Linux: sudo ufw allow 5353/udp and the game port; Windows: mark the WiFi as Private "
                          "and allow Python; macOS: allow incoming connections for Python"))
    return Diagnosis(addresses, port, tuple(reasons))
