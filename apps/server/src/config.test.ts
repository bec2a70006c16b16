import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { loadSecrets } from './lib/secrets.js';

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'zapdesk-cfg-'));

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(8080);
    expect(config.DATA_DIR).toBe('./data');
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.REDIS_URL).toBeUndefined();
    expect(config.production).toBe(false);
  });

  it('reads API_PREFIX: /api by default, empty or / for the root, no trailing slash', () => {
    expect(loadConfig({}).API_PREFIX).toBe('/api');
    expect(loadConfig({ API_PREFIX: '' }).API_PREFIX).toBe('');
    expect(loadConfig({ API_PREFIX: '/' }).API_PREFIX).toBe('');
    expect(loadConfig({ API_PREFIX: '/backend/v1/' }).API_PREFIX).toBe('/backend/v1');
    expect(() => loadConfig({ API_PREFIX: 'api' })).toThrow(/API_PREFIX/);
    expect(() => loadConfig({ API_PREFIX: '/a b' })).toThrow(/API_PREFIX/);
  });

  it('reads OUTBOUND_ALLOW_PRIVATE_URLS, closed by default, with WEBHOOK_ALLOW_PRIVATE_URLS as its former name', () => {
    expect(loadConfig({}).OUTBOUND_ALLOW_PRIVATE_URLS).toBe(false);
    expect(loadConfig({ OUTBOUND_ALLOW_PRIVATE_URLS: 'true' }).OUTBOUND_ALLOW_PRIVATE_URLS).toBe(true);
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' }).OUTBOUND_ALLOW_PRIVATE_URLS).toBe(true);
    expect(
      loadConfig({ OUTBOUND_ALLOW_PRIVATE_URLS: 'false', WEBHOOK_ALLOW_PRIVATE_URLS: 'true' })
        .OUTBOUND_ALLOW_PRIVATE_URLS,
    ).toBe(false);
    expect(() => loadConfig({ OUTBOUND_ALLOW_PRIVATE_URLS: 'yes' })).toThrow(/OUTBOUND_ALLOW_PRIVATE_URLS/);
  });

  it('reads the storage: local disk by default, S3 with a bucket and both keys or neither', () => {
    expect(loadConfig({}).STORAGE).toBe('local');
    const s3 = loadConfig({
      STORAGE: 's3',
      S3_BUCKET: 'zapdesk-media',
      S3_ENDPOINT: 'http://minio:9000',
      S3_FORCE_PATH_STYLE: 'true',
      S3_ACCESS_KEY_ID: 'key',
      S3_SECRET_ACCESS_KEY: 'secret',
    });
    expect(s3).toMatchObject({ STORAGE: 's3', S3_REGION: 'us-east-1', S3_FORCE_PATH_STYLE: true });
    expect(loadConfig({ STORAGE: 's3', S3_BUCKET: 'b-1' }).S3_FORCE_PATH_STYLE).toBe(false);
    expect(() => loadConfig({ STORAGE: 's3' })).toThrow(/S3_BUCKET: required when STORAGE=s3/);
    expect(() => loadConfig({ STORAGE: 's3', S3_BUCKET: 'Bad_Name' })).toThrow(/S3_BUCKET/);
    expect(() => loadConfig({ STORAGE: 's3', S3_BUCKET: 'b-1', S3_ACCESS_KEY_ID: 'key' })).toThrow(
      /S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: set both or neither/,
    );
    expect(() => loadConfig({ STORAGE: 's3', S3_BUCKET: 'b-1', S3_ENDPOINT: 'minio' })).toThrow(
      /S3_ENDPOINT/,
    );
    expect(() => loadConfig({ STORAGE: 'disk' })).toThrow(/STORAGE/);
  });

  it('reads CORS_ORIGINS as a list of bare origins', () => {
    expect(loadConfig({}).CORS_ORIGINS).toEqual([]);
    expect(
      loadConfig({ CORS_ORIGINS: 'https://app.example.com, http://localhost:3000' }).CORS_ORIGINS,
    ).toEqual(['https://app.example.com', 'http://localhost:3000']);
    for (const bad of ['*', 'app.example.com', 'https://app.example.com/', 'https://a.example.com/x']) {
      expect(() => loadConfig({ CORS_ORIGINS: bad }), bad).toThrow(/CORS_ORIGINS/);
    }
  });

  it('trusts no proxy by default and takes a list of proxy addresses or CIDRs', () => {
    expect(loadConfig({}).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 192.168.0.0/16,loopback' }).TRUST_PROXY).toEqual([
      '10.0.0.1',
      '192.168.0.0/16',
      'loopback',
    ]);
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ TRUST_PROXY: '2' })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.300' })).toThrow(/TRUST_PROXY/);
  });

  it('names every invalid variable', () => {
    expect(() => loadConfig({ PORT: 'eighty', DATABASE_URL: 'not a url' })).toThrow(
      /PORT[\s\S]*DATABASE_URL|DATABASE_URL[\s\S]*PORT/,
    );
  });
});

describe('loadSecrets', () => {
  it('generates a secret once, keeps it in DATA_DIR with mode 0600 and reuses it', () => {
    const dir = tmp();
    const config = loadConfig({ DATA_DIR: dir });
    const first = loadSecrets(config);
    const file = path.join(dir, 'secrets.json');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(first.jwtSecret.length).toBeGreaterThanOrEqual(64);
    expect(Buffer.from(loadSecrets(config).jwtSecret).equals(Buffer.from(first.jwtSecret))).toBe(true);
    expect(
      Buffer.from(loadSecrets(loadConfig({ DATA_DIR: tmp() })).jwtSecret).equals(
        Buffer.from(first.jwtSecret),
      ),
    ).toBe(false);
  });

  it('refuses a secret shorter than 32 bytes in production only', () => {
    const dir = tmp();
    expect(() =>
      loadSecrets(loadConfig({ NODE_ENV: 'production', DATA_DIR: dir, JWT_SECRET: 'short' })),
    ).toThrow(/32 bytes/);
    expect(() =>
      loadSecrets(loadConfig({ NODE_ENV: 'development', DATA_DIR: dir, JWT_SECRET: 'short' })),
    ).not.toThrow();
    const long = 'x'.repeat(32);
    expect(
      loadSecrets(loadConfig({ NODE_ENV: 'production', DATA_DIR: dir, JWT_SECRET: long })).jwtSecret.length,
    ).toBe(32);
  });
});
