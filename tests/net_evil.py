"""A scripted evil peer: speaks the wire protocol with our own framing and signing code but
lets a test forge any field. It is pinned on the honest host as a normal guest."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import engine.api as engine
from net import certs
from net.chain import ChainReader, ChainWriter, derive_chain_id
from net.identity import Identity, load_or_create
from net.match import Match
from net.messages import PROTOCOL_VERSION, Hello, Message, Signed
from net.outputs import Send
from net.peers import KnownPeer, PeerStore
from net.session import NetConfig
from net.toss import fresh
from net.transport import Link, Timeouts, connect


def pin_each_other(a: NetConfig, b_identity: Identity, b_name: str) -> None:
    """Pin ``b`` in ``a``'s store (as a confirmed pairing would)."""
    cp = certs.make_cert(b_identity)
    PeerStore(a.data_dir).add(KnownPeer(b_identity.fingerprint, b_identity.public_bytes.hex(), cp.cert_pem.decode(),
                                        certs.pin(cp.der), b_name, ""))


class Evil:
    """The evil guest. ``start`` connects, says hello and plays the setup honestly."""

    def __init__(self, tmp: Path, host_cfg: NetConfig) -> None:
        self.identity = load_or_create(tmp / "evil")
        self.certs = certs.make_cert(self.identity)
        self.host_cfg = host_cfg
        pin_each_other(host_cfg, self.identity, "evil")
        self.link: Link | None = None

    async def connect(self, port: int, timeouts: Timeouts) -> Link:
        host_pem = certs.make_cert(self.host_cfg.identity).cert_pem.decode()
        self.link = await connect("127.0.0.1", port, certs.client_context(self.certs, host_pem), timeouts)
        return self.link

    async def hello(self, v: int = PROTOCOL_VERSION, **kw: Any) -> Hello:
        assert self.link is not None
        nonce = fresh()
        await self.link.send(Hello(v, "play", "evil", None, nonce, kw.get("chain"), kw.get("sent", 0), kw.get("recv", 0)))
        peer = await self.link.recv()
        assert isinstance(peer, Hello)
        host_pub = self.host_cfg.identity.public_bytes
        self.chain_id = derive_chain_id(host_pub, self.identity.public_bytes, peer.nonce, nonce)
        self.writer = ChainWriter(self.identity, self.chain_id)
        self.reader = ChainReader(host_pub, self.chain_id)
        self.match = Match(engine, self.chain_id, "guest")
        self.sent: list[Signed] = []
        return peer

    async def send(self, msg: Message, secrets: dict[str, Any] | None = None, feed: bool = True) -> Signed:
        """Sign and send ``msg`` as the next message (and apply it to our own match)."""
        assert self.link is not None
        signed = self.writer.sign(msg)
        self.writer.advance(signed)
        self.sent.append(signed)
        await self.link.send(signed)
        if feed:
            for out in self.match.feed(True, msg, secrets):
                if isinstance(out, Send):
                    await self.send(out.message, out.secrets)
        return signed

    async def pump(self) -> Message:
        """Receive, verify and apply one host message (answering automatically)."""
        assert self.link is not None
        msg = await self.link.recv()
        assert isinstance(msg, Signed)
        v = self.reader.check(msg)
        assert v is not None
        self.reader.accept(v)
        for out in self.match.feed(False, v.message):
            if isinstance(out, Send):
                await self.send(out.message, out.secrets)
        return v.message

    async def setup_as_black(self, requests: list[dict[str, Any]] | None = None) -> None:
        """Play the setup honestly as black (the host bot chooses white): black moves first.
        ``requests``: rule changes to ask for (the host bot approves them by default); the host
        bot's own requests are approved."""
        s = self.match.setup
        for send in (s.choose_colour("black"), s.commit_gov("monarchy")):
            await self.send(send.message, send.secrets)
        for changes in requests or []:
            await self.send(s.request(changes).message)
        while s.state.name == "OPEN":
            theirs = [rid for side, rid in s.pending() if side == s.peer]
            if theirs:                      # the host bot's requests (e.g. NO_PSI): approved
                await self.send(s.answer(theirs[0], True).message)
                continue
            if s.ready() and "guest" not in s.finished:
                send = s.finish()
                await self.send(send.message, send.secrets)
                continue
            await self.pump()
