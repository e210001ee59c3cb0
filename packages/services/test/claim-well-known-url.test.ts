import assert from "node:assert/strict";
import { test } from "node:test";
import { wellKnownUrlOf } from "@rpcpulse/services/directory";

test("the well-known claim file is always fetched over HTTPS from the endpoint's host", () => {
  const file = "/.well-known/rpcpulse-claim";
  assert.equal(wellKnownUrlOf("https://api.example.org/rpc?x=1"), `https://api.example.org${file}`);
  assert.equal(wellKnownUrlOf("https://api.example.org:8443/"), `https://api.example.org:8443${file}`);
  assert.equal(wellKnownUrlOf("https://api.example.org:443/"), `https://api.example.org${file}`);
  assert.equal(wellKnownUrlOf("wss://ws.example.org:9944/"), `https://ws.example.org:9944${file}`);
  // Plain-HTTP endpoints: the host's HTTPS port, never the endpoint's plain port.
  assert.equal(wellKnownUrlOf("http://rpc.example.org:8545/"), `https://rpc.example.org${file}`);
  assert.equal(wellKnownUrlOf("ws://rpc.example.org:8546"), `https://rpc.example.org${file}`);
  assert.equal(wellKnownUrlOf("http://203.0.113.7:8091"), `https://203.0.113.7${file}`);
  assert.equal(wellKnownUrlOf("http://[2001:db8::1]:8091"), `https://[2001:db8::1]${file}`);
  assert.equal(wellKnownUrlOf("ftp://files.example.org/"), null);
  assert.equal(wellKnownUrlOf("not a url"), null);
});
