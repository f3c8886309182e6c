import { expect, it } from "vitest";
import { Latest } from "./latest";

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

it("runs once now and once more for the newest input", async () => {
  const calls: string[] = [];
  const gates: ((v: string) => void)[] = [];
  const results: string[] = [];
  const latest = new Latest<string, string>(
    (input) => {
      calls.push(input);
      const d = deferred<string>();
      gates.push(d.resolve);
      return d.promise;
    },
    (_input, output) => results.push(output),
  );

  latest.request("a");
  latest.request("ab");
  latest.request("abc");
  expect(calls).toEqual(["a"]);
  gates[0]("A");
  await tick();
  expect(calls).toEqual(["a", "abc"]);
  gates[1]("ABC");
  await tick();
  expect(results).toEqual(["A", "ABC"]);
  expect(latest.busy).toBe(false);
});

it("goes on after a failure", async () => {
  const failures: unknown[] = [];
  const results: number[] = [];
  const latest = new Latest<number, number>(
    async (n) => {
      if (n === 1) throw new Error("boom");
      return n * 10;
    },
    (_i, o) => results.push(o),
    (_i, e) => failures.push(e),
  );
  latest.request(1);
  await tick();
  latest.request(2);
  await tick();
  expect(failures).toHaveLength(1);
  expect(results).toEqual([20]);
});

it("drops a cancelled input", async () => {
  const calls: number[] = [];
  const d = deferred<number>();
  const latest = new Latest<number, number>(
    (n) => {
      calls.push(n);
      return n === 1 ? d.promise : Promise.resolve(n);
    },
    () => {},
  );
  latest.request(1);
  latest.request(2);
  latest.cancel();
  d.resolve(1);
  await tick();
  expect(calls).toEqual([1]);
});
