// Preload (node --import) that moves this process's wall clock by RPCPULSE_TEST_CLOCK_SHIFT_MS:
// Date.now() and `new Date()` are shifted, monotonic clocks are not. Simulates a host whose time
// sync is broken, for the agent under test (no option of ours is involved).
const shift = Number(process.env.RPCPULSE_TEST_CLOCK_SHIFT_MS ?? "0");
if (shift !== 0) {
  const RealDate = globalThis.Date;
  const realNow = RealDate.now.bind(RealDate);
  class ShiftedDate extends RealDate {
    constructor(...args) {
      if (args.length === 0) super(realNow() + shift);
      else super(...args);
    }
    static now() {
      return realNow() + shift;
    }
  }
  globalThis.Date = ShiftedDate;
}
