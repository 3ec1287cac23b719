#!/usr/bin/env node
// Compiles one Solidity source read from standard input with solc-js 0.8.19 (the version
// pinned in package.json / package-lock.json beside this file) and prints one JSON object:
//   {"contract": NAME, "bytecode": CREATION_HEX, "deployedBytecode": RUNTIME_HEX}
// Errors go to standard error with exit status 1.
//
// Settings: the legacy optimizer with runs = 1 and the Yul optimizer step off. The generated
// verifiers are one large inline-assembly block: the full Yul optimizer stops with "stack too
// deep", and the via-IR pipeline breaks their free-memory-pointer guard (the contract then
// always reverts), so neither may be turned on.
'use strict';
const fs = require('fs');
const path = require('path');
const solc = require(path.join(__dirname, 'node_modules', 'solc'));

const source = fs.readFileSync(0, 'utf8');
const input = {
  language: 'Solidity',
  sources: { 'Verifier.sol': { content: source } },
  settings: {
    optimizer: { enabled: true, runs: 1, details: { yul: false } },
    outputSelection: { '*': { '*': ['evm.bytecode.object', 'evm.deployedBytecode.object'] } },
  },
};
const out = JSON.parse(solc.compile(JSON.stringify(input)));
let failed = false;
for (const e of out.errors || []) {
  if (e.severity === 'error') {
    failed = true;
    process.stderr.write((e.formattedMessage || e.message) + '\n');
  }
}
if (failed) process.exit(1);
const contracts = Object.entries(out.contracts['Verifier.sol'] || {});
if (contracts.length !== 1) {
  process.stderr.write(`expected one contract, found ${contracts.length}\n`);
  process.exit(1);
}
const [name, c] = contracts[0];
process.stdout.write(JSON.stringify({
  contract: name,
  version: solc.version(),
  bytecode: c.evm.bytecode.object,
  deployedBytecode: c.evm.deployedBytecode.object,
}) + '\n');
