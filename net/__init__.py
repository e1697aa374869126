"""Network play: discovery, transport, identity/pairing, lockstep, audit, licence client."""
