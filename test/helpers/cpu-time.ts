/**
 * Runs `f` and returns its result with the CPU time it took (user + system of this process, in ms). Complexity
 * guards in the tests compare this, not wall time: on a shared machine at load 25 a pass's wall time is several
 * times its CPU time, while a slip into quadratic work still multiplies the CPU time.
 */
export function cpuTimed<T>(f: () => T): [T, number] {
  const before = process.cpuUsage();
  const result = f();
  const used = process.cpuUsage(before);
  return [result, Math.round((used.user + used.system) / 1000)];
}
