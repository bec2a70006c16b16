/**
 * The container files name only variables the server reads: every variable given to a Zapdesk node
 * by the Dockerfile, deploy/compose.yaml or deploy/.env.example is in the configuration schema (or
 * is the media storage's, or belongs to another service), and .env.example mentions every variable
 * of the schema. No Docker daemon is needed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES } from './config.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

/** Read by the media storage (STORAGE=s3), configured beside the schema. */
const STORAGE_VARIABLES = [
  'STORAGE',
  'S3_ENDPOINT',
  'S3_BUCKET',
  'S3_REGION',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'S3_FORCE_PATH_STYLE',
];
/** Read by the other services of compose.yaml (Postgres, MinIO, Caddy), not by Zapdesk. */
const SERVICE_VARIABLES = [
  'POSTGRES_USER',
  'POSTGRES_PASSWORD',
  'POSTGRES_DB',
  'MINIO_ROOT_USER',
  'MINIO_ROOT_PASSWORD',
  'SITE_ADDRESS',
];
const known = new Set([...CONFIG_VARIABLES, ...STORAGE_VARIABLES]);

/**
 * The variable keys (indented `NAME:` lines) of the zapdesk anchor and of the zapdesk-N services in
 * compose.yaml: each section runs from its key to the next key at its own indentation or less.
 */
function composeNodeVariables(compose: string): string[] {
  const names: string[] = [];
  let inNode = false;
  let indent = 0;
  for (const line of compose.split('\n')) {
    const key = /^( *)([\w-]+):/.exec(line);
    if (key && key[1]!.length <= indent) inNode = false;
    if (key && /^(x-zapdesk|zapdesk-\d+)$/.test(key[2]!)) {
      inNode = true;
      indent = key[1]!.length;
      continue;
    }
    const variable = /^ +([A-Z][A-Z0-9_]+):/.exec(line);
    if (inNode && variable) names.push(variable[1]!);
  }
  return names;
}

describe('deploy files', () => {
  it('give the nodes only variables the server reads', () => {
    const dockerfile = read('Dockerfile');
    const envBlocks = [...dockerfile.matchAll(/^ENV ((?:.*\\\n)*.*)$/gm)].map((m) => m[1]!);
    const imageVariables = envBlocks.flatMap((block) =>
      [...block.matchAll(/([A-Z][A-Z0-9_]+)=/g)].map((m) => m[1]!),
    );
    expect(imageVariables).toEqual(expect.arrayContaining(['NODE_ENV', 'DATA_DIR', 'PORT']));
    const nodeVariables = composeNodeVariables(read('deploy/compose.yaml'));
    expect(nodeVariables).toEqual(
      expect.arrayContaining(['DATABASE_URL', 'REDIS_URL', 'NODE_ID', 'STORAGE']),
    );
    const example = read('deploy/.env.example');
    const exampleVariables = [...example.matchAll(/^([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]!);
    for (const name of [...imageVariables, ...nodeVariables]) expect(known, name).toContain(name);
    for (const name of exampleVariables) {
      expect(known.has(name) || SERVICE_VARIABLES.includes(name), name).toBe(true);
    }
  });

  it('.env.example mentions every variable of the configuration', () => {
    const example = read('deploy/.env.example');
    const missing = CONFIG_VARIABLES.filter((name) => !new RegExp(`\\b${name}=`).test(example));
    expect(missing).toEqual([]);
  });

  it('compose names the healthy services the nodes wait for and the proxy config it mounts', () => {
    const compose = read('deploy/compose.yaml');
    for (const service of ['postgres', 'redis', 'minio', 'minio-init', 'zapdesk-1', 'zapdesk-2', 'proxy']) {
      expect(compose, service).toMatch(new RegExp(`^  ${service}:`, 'm'));
    }
    const caddyfile = read('deploy/Caddyfile');
    expect(caddyfile).toContain('zapdesk-1:8080 zapdesk-2:8080');
    expect(caddyfile).toContain('health_uri /api/ready');
  });
});
