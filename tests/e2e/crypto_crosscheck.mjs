// Cross-checks Proofdesk's STARK crypto against @scure/starknet (npm) on random inputs:
// Pedersen, Poseidon (pair, single, many) and ECDSA verification of signatures scure makes.
//   node crypto_crosscheck.mjs /path/to/crypto_oracle
// Exit 0 on success, 1 on a mismatch, 77 (skipped) when @scure/starknet is not installed.

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';

let stark;
try {
  stark = await import('@scure/starknet');
} catch {
  console.log('SKIP: @scure/starknet is not installed (npm ci --prefix tests/e2e)');
  process.exit(77);
}
const oracle = process.argv[2];
const P = 2n ** 251n + 17n * 2n ** 192n + 1n;
const hex = (v) => '0x' + v.toString(16);
const felt = () => BigInt('0x' + randomBytes(32).toString('hex')) % P;
const below251 = () => BigInt('0x' + randomBytes(32).toString('hex')) % (2n ** 251n);

const child = spawn(oracle, [], { stdio: ['pipe', 'pipe', 'inherit'] });
const lines = createInterface({ input: child.stdout });
const pending = [];
lines.on('line', (line) => pending.shift()(line));
const ask = (query) => new Promise((resolve) => { pending.push(resolve); child.stdin.write(query + '\n'); });

let passed = 0;
let failed = 0;
const check = (name, ours, theirs) => {
  if (ours === theirs) { passed += 1; } else { failed += 1; console.log(`not ok - ${name}: ours ${ours}, scure ${theirs}`); }
};

for (let i = 0; i < 20; i++) {
  const [x, y] = [felt(), felt()];
  check(`pedersen #${i}`, await ask(`pedersen ${hex(x)} ${hex(y)}`), hex(BigInt(stark.pedersen(x, y))));
  check(`poseidon #${i}`, await ask(`poseidon ${hex(x)} ${hex(y)}`), hex(stark.poseidonHash(x, y)));
  check(`poseidon_single #${i}`, await ask(`poseidon_single ${hex(x)}`), hex(stark.poseidonHashSingle(x)));
  const many = Array.from({ length: i % 7 }, felt);
  check(`poseidon_many(${many.length}) #${i}`, await ask(`poseidon_many ${many.map(hex).join(' ')}`),
    hex(stark.poseidonHashMany(many)));
}
for (let i = 0; i < 5; i++) {
  const priv = stark.utils.randomPrivateKey();
  const pub = BigInt(stark.getStarkKey(priv));
  const msg = below251();
  const sig = stark.sign(hex(msg).slice(2).padStart(64, '0'), priv);
  check(`ecdsa valid #${i}`, await ask(`ecdsa_verify ${hex(msg)} ${hex(sig.r)} ${hex(sig.s)} ${hex(pub)}`), 'true');
  check(`ecdsa tampered #${i}`, await ask(`ecdsa_verify ${hex(msg + 1n)} ${hex(sig.r)} ${hex(sig.s)} ${hex(pub)}`), 'false');
}
child.stdin.end();
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
