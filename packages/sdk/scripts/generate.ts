/** `npm run generate -w @coffer/sdk`: rewrites src/generated/openapi.ts from the server's document. */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { generatedFile, serverDocument, typesOf } from './openapi-types';

const source = await typesOf(await serverDocument());
await mkdir(path.dirname(generatedFile), { recursive: true });
await writeFile(generatedFile, source);
process.stdout.write(`Wrote ${path.relative(process.cwd(), generatedFile)} (${source.length} characters)\n`);
