import assert from "node:assert/strict";
import { test } from "node:test";
import { splitStatements } from "../src/migrate/split-statements.js";

test("splits at top-level semicolons only", () => {
  const script = `
    -- leading comment; with a semicolon
    CREATE TABLE a (v text DEFAULT 'x;y');
    /* block ; /* nested ; */ still comment ; */
    INSERT INTO a VALUES ('it''s; quoted'), (E'back\\'slash; escaped');
    CREATE FUNCTION f() RETURNS int LANGUAGE plpgsql AS $fn$ BEGIN RETURN 1; END $fn$;
    DO $$ BEGIN PERFORM 1; END $$;
    SELECT "semi;colon" FROM a;
    ;;
    -- trailing comment only`;
  const statements = splitStatements(script);
  assert.equal(statements.length, 5);
  assert.match(
    statements[0] ?? "",
    /^-- leading comment; with a semicolon\n\s+CREATE TABLE a \(v text DEFAULT 'x;y'\)$/,
  );
  assert.match(statements[1] ?? "", /E'back\\'slash; escaped'\)$/);
  assert.match(statements[2] ?? "", /\$fn\$ BEGIN RETURN 1; END \$fn\$$/);
  assert.equal(statements[3], "DO $$ BEGIN PERFORM 1; END $$");
  assert.equal(statements[4], 'SELECT "semi;colon" FROM a');
});

test("a statement without a final semicolon is kept; comments alone are dropped", () => {
  assert.deepEqual(splitStatements("SELECT 1; SELECT 2"), ["SELECT 1", "SELECT 2"]);
  assert.deepEqual(splitStatements("-- nothing\n/* here */"), []);
});

test("dollar signs in identifiers and positional parameters are not quotes", () => {
  assert.deepEqual(splitStatements("SELECT a$b, $1 FROM t; SELECT 2"), ["SELECT a$b, $1 FROM t", "SELECT 2"]);
});

test("unterminated quotes are errors", () => {
  assert.throws(() => splitStatements("SELECT 'abc"), /unterminated string literal/);
  assert.throws(() => splitStatements("DO $x$ BEGIN"), /unterminated dollar-quoted string \$x\$/);
});
