// Preloaded (node --require) into every process the benchmark times: on exit, writes the process's peak
// resident set size (KiB, all threads included) to $KNL_BENCH_RSS_FILE.
const fs = require('node:fs');
const file = process.env.KNL_BENCH_RSS_FILE;
if (file) process.on('exit', () => fs.writeFileSync(file, String(process.resourceUsage().maxRSS)));
