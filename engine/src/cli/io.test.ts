import { describe, expect, it } from "vitest";
import { coalescedWriter } from "./io.js";

describe("coalescedWriter", () => {
  it("joins the writes of up to 50 ms into one, in order, across turns of the event loop", async () => {
    const out: string[] = [];
    const w = coalescedWriter((c) => out.push(c));
    w.write("a\n");
    await new Promise((r) => setImmediate(r));
    w.write("b\n");
    await new Promise((r) => setImmediate(r));
    expect(out).toEqual([]);
    await new Promise((r) => setTimeout(r, 60));
    expect(out).toEqual(["a\nb\n"]);
    w.write("c\n");
    w.flush();
    expect(out).toEqual(["a\nb\n", "c\n"]);
    // A flush cancels the timer: nothing is written twice or out of turn.
    await new Promise((r) => setTimeout(r, 60));
    expect(out).toEqual(["a\nb\n", "c\n"]);
  });

  it("writes through once a pending line is 50 ms old, even if the event loop never turns", () => {
    const out: string[] = [];
    let clock = 0;
    const w = coalescedWriter((c) => out.push(c), () => clock);
    w.write("a\n");
    clock = 49;
    w.write("b\n");
    expect(out).toEqual([]);
    clock = 50;
    w.write("c\n");
    expect(out).toEqual(["a\nb\nc\n"]);
  });

  it("writes through once 64 KiB are pending, and flush empties it at once", () => {
    const out: string[] = [];
    const w = coalescedWriter((c) => out.push(c));
    const big = "x".repeat(40 * 1024);
    w.write(big);
    w.write(big);
    expect(out).toEqual([big + big]);
    w.write("tail");
    w.flush();
    expect(out).toEqual([big + big, "tail"]);
  });
});
