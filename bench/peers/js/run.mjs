// Runs one JavaScript engine through the workload of `deltaview bench`
// and prints one JSON object per (N, view) on standard output, in the
// schema of bench.Cell. Progress goes to standard error.
//
//   node --expose-gc run.mjs --engine tanstack|zero|d2ts --n 10000,100000
//        [--views filter,…] [--latency-ms 1000] [--latency-min 5] [--latency-max 3000]
//        [--batch-ms 500] [--max-batch-sec 8] [--batches 1,100,10000] [--preflight-n 1000]
import { parseArgs } from 'node:util';
import { Data, VIEWS, runView, preflight } from './workload.mjs';

const { values: a } = parseArgs({
  options: {
    engine: { type: 'string' }, n: { type: 'string', default: '10000,100000' }, views: { type: 'string', default: '' },
    'latency-ms': { type: 'string', default: '1000' }, 'latency-min': { type: 'string', default: '5' },
    'latency-max': { type: 'string', default: '3000' }, 'batch-ms': { type: 'string', default: '500' },
    'max-batch-sec': { type: 'string', default: '8' }, batches: { type: 'string', default: '1,100,10000' },
    'preflight-n': { type: 'string', default: '1000' },
  },
});
const engines = { tanstack: './engines/tanstack.mjs', zero: './engines/zero.mjs', d2ts: './engines/d2ts.mjs' };
if (!engines[a.engine]) throw new Error('--engine must be one of ' + Object.keys(engines).join(', '));
const { make } = await import(engines[a.engine]);
const opt = {
  latencyMs: Number(a['latency-ms']), latencyMin: Number(a['latency-min']), latencyMax: Number(a['latency-max']),
  batchMs: Number(a['batch-ms']), maxBatchSec: Number(a['max-batch-sec']), batches: a.batches.split(',').map(Number),
};
const wanted = a.views ? a.views.split(',') : VIEWS.map((v) => v.name);
const views = VIEWS.filter((v) => wanted.includes(v.name));

const name = make().name;
const problems = preflight(make, Number(a['preflight-n']), 60);
for (const n of a.n.split(',').map(Number)) {
  const d = new Data(n);
  const engine = make();
  engine.load(d);
  for (const v of views) {
    let cell;
    const p = problems.get(v.name);
    if (p) {
      cell = { system: name, view: v.name, n, status: p.constructor.name === 'Unsupported' ? 'unsupported' : 'invalid', note: p.message, throughput: [], checks: 0 };
    } else {
      process.stderr.write(`${name} N=${n} ${v.name}…\n`);
      cell = runView(engine, d, v, opt);
    }
    process.stdout.write(JSON.stringify(cell) + '\n');
  }
  engine.close?.();
}
