import { describe, expect, it } from "vitest";
import { goDurationString } from "./gostrings.js";

describe("goDurationString", () => {
  it("prints milliseconds as Go's time.Duration String does", () => {
    expect([0, 5, 999, 1000, 1500, 30_000, 60_000, 64_000, 90_500, 3_600_000, 3_661_000].map(goDurationString)).toEqual([
      "0s",
      "5ms",
      "999ms",
      "1s",
      "1.5s",
      "30s",
      "1m0s",
      "1m4s",
      "1m30.5s",
      "1h0m0s",
      "1h1m1s",
    ]);
  });
});
