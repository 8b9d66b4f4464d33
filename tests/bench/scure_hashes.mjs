// Hashes per second of @scure/starknet on the inputs cairo_vm_bench uses:
//   node scure_hashes.mjs PEDERSEN_COUNT POSEIDON_COUNT  ->  "<pedersen/s> <poseidon/s>"
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(join(here, '..', 'e2e', 'package.json'));
const { pedersen, poseidonHash } = require('@scure/starknet');

const pedersenCount = Number(process.argv[2] || 5000);
const poseidonCount = Number(process.argv[3] || 25000);
const X0 = 0x3d937c035c878245caf64531a5756109c53068da139362728feb561405371cbn;
const Y0 = 0x208a0a10250e382e1e4bbe2880906c2791bf6275695e02fbbc6aeff9cd8b31an;
const x = (i) => X0 - BigInt(i);
const y = (i) => Y0 + BigInt(i) * 104729n;

pedersen(1n, 2n); // warm-up (precomputation)
let start = process.hrtime.bigint();
for (let i = 0; i < pedersenCount; i++) pedersen(x(i), y(i));
const pedersenRate = pedersenCount / (Number(process.hrtime.bigint() - start) / 1e9);
start = process.hrtime.bigint();
for (let i = 0; i < poseidonCount; i++) poseidonHash(x(i), y(i));
const poseidonRate = poseidonCount / (Number(process.hrtime.bigint() - start) / 1e9);
console.log(`${pedersenRate.toFixed(0)} ${poseidonRate.toFixed(0)}`);
