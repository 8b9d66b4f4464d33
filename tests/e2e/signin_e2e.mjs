// End-to-end: a real third-party wallet library (ethers.js) signs in against `proofdesk serve`,
// exactly as a user's script would (docs/api.md), then uses and rotates the session.
//
//   node signin_e2e.mjs /path/to/proofdesk
//
// Exit 0 on success, 1 on failure, 77 (skipped) when ethers is not installed.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

let ethers;
try {
  ethers = await import('ethers');
} catch {
  console.log('SKIP: ethers is not installed (npm ci --prefix tests/e2e)');
  process.exit(77);
}

const binary = process.argv[2];
if (!binary) {
  console.error('usage: node signin_e2e.mjs /path/to/proofdesk');
  process.exit(2);
}

let passed = 0;
let failed = 0;
function check(name, condition, detail = '') {
  if (condition) {
    passed += 1;
    console.log(`ok - ${name}`);
  } else {
    failed += 1;
    console.log(`not ok - ${name} ${detail}`);
  }
}

function run(args) {
  return new Promise((resolve) => {
    const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk) => { out += chunk; });
    child.on('exit', (code) => resolve({ code, out }));
  });
}

// Starts the server on a free port and resolves with its URL once it prints it.
function startServer(dataDir) {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, ['serve', '--listen', '127.0.0.1:0', '--data-dir', dataDir],
      { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const timer = setTimeout(() => reject(new Error(`server did not start: ${out}`)), 20000);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = out.match(/sign-in service: (http:\/\/\S+)/);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1] });
      }
    });
    child.on('exit', (code) => reject(new Error(`server exited ${code}: ${out}`)));
  });
}

const dataDir = mkdtempSync(join(tmpdir(), 'proofdesk-e2e-'));
let server;
try {
  server = await startServer(dataDir);
  const base = server.url;
  const wallet = ethers.Wallet.createRandom();

  // 1. Challenge for the wallet address.
  const challengeReply = await fetch(`${base}/auth/web3/challenge?wallet=${wallet.address}`);
  const challenge = await challengeReply.json();
  check('challenge is 200', challengeReply.status === 200, JSON.stringify(challenge));
  const { domain, types, primaryType, message } = challenge.eip712;
  check('challenge names the SignIn primary type', primaryType === 'SignIn');

  // 2. Sign exactly the returned fields (ethers takes the types without EIP712Domain).
  const signTypes = { ...types };
  delete signTypes.EIP712Domain;
  const signature = await wallet.signTypedData(domain, signTypes, message);
  check('ethers recovers its own signature',
    ethers.verifyTypedData(domain, signTypes, message, signature) === wallet.address);

  // 3. Session over the bearer channel.
  const sessionReply = await fetch(`${base}/auth/web3/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ wallet: wallet.address, challengeToken: challenge.challengeToken,
      signature, channel: 'bearer' }),
  });
  const session = await sessionReply.json();
  check('session is 200', sessionReply.status === 200, JSON.stringify(session));
  check('session has tokens, expiry and project',
    typeof session.accessToken === 'string' && typeof session.refreshToken === 'string' &&
    Number.isInteger(session.expiresAt) && typeof session.selectedProject === 'string');
  check('no cookie on the bearer channel', sessionReply.headers.get('set-cookie') === null);
  const now = Math.floor(Date.now() / 1000);
  check('expiresAt is Unix seconds about 15 minutes ahead',
    session.expiresAt > now + 800 && session.expiresAt <= now + 901, String(session.expiresAt));

  // 4. The first-time wallet's personal project has one active key: data[0].apiKey.
  const keysReply = await fetch(`${base}/api-keys?projectId=${session.selectedProject}&limit=10&offset=0`,
    { headers: { authorization: `Bearer ${session.accessToken}` } });
  const keys = await keysReply.json();
  check('key listing is 200', keysReply.status === 200, JSON.stringify(keys));
  check('exactly one active key', keys.total === 1 && keys.data.length === 1 && keys.data[0].active);
  check('data[0].apiKey is a key', typeof keys.data[0].apiKey === 'string' && keys.data[0].apiKey.length > 20);

  // Mint another key.
  const mintReply = await fetch(`${base}/api-keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${session.accessToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ projectId: session.selectedProject, type: { name: 'script', color: '#10b981' } }),
  });
  const minted = await mintReply.json();
  check('minting is 201', mintReply.status === 201 && minted.name === 'script', JSON.stringify(minted));

  // 5. Refresh before expiry; the old refresh token stops working.
  const refreshReply = await fetch(`${base}/auth/refresh-token`, {
    method: 'POST', headers: { authorization: `Bearer ${session.refreshToken}` },
  });
  const refreshed = await refreshReply.json();
  check('refresh is 200 with new tokens', refreshReply.status === 200 &&
    refreshed.refreshToken !== session.refreshToken && refreshed.accessToken !== session.accessToken);
  const reuseReply = await fetch(`${base}/auth/refresh-token`, {
    method: 'POST', headers: { authorization: `Bearer ${session.refreshToken}` },
  });
  const reuse = await reuseReply.json();
  check('reused refresh token is refused', reuseReply.status === 401 && reuse.error === 'RefreshTokenReused',
    JSON.stringify(reuse));

  // A signature by another wallet over the same kind of challenge is refused.
  const other = ethers.Wallet.createRandom();
  const second = await (await fetch(`${base}/auth/web3/challenge?wallet=${wallet.address}`)).json();
  const t2 = { ...second.eip712.types };
  delete t2.EIP712Domain;
  const forged = await other.signTypedData(second.eip712.domain, t2, second.eip712.message);
  const forgedReply = await fetch(`${base}/auth/web3/session`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ wallet: wallet.address, challengeToken: second.challengeToken,
      signature: forged, channel: 'bearer' }),
  });
  check('a signature by another wallet is 401', forgedReply.status === 401);

  // Offline admin: `proofdesk keys create` prints a key (the store is shared with the server).
  const created = await run(['keys', 'create', '--data-dir', dataDir, '--project', 'e2e']);
  check('keys create prints a key', created.code === 0 && /^pdk_\S{20,}\n$/.test(created.out), created.out);
} catch (error) {
  failed += 1;
  console.log(`not ok - unexpected error: ${error.stack || error}`);
} finally {
  if (server) {
    server.child.kill('SIGTERM');
    await new Promise((resolve) => server.child.on('exit', resolve));
  }
  rmSync(dataDir, { recursive: true, force: true });
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
