import { createAdapter } from '@socket.io/redis-adapter';
import { createClient, type RedisClientType } from 'redis';
import type { Realtime } from './realtime.js';

/**
 * Fans socket.io emits out across server nodes through Redis pub/sub (REDIS_URL), so an event
 * emitted on one node reaches the sockets connected to any other. Returns a function that closes
 * the two Redis connections.
 */
export async function useRedisAdapter(realtime: Realtime, url: string): Promise<() => Promise<void>> {
  const pub = createClient({ url });
  const sub = pub.duplicate();
  pub.on('error', () => {});
  sub.on('error', () => {});
  await Promise.all([pub.connect(), sub.connect()]);
  realtime.io.adapter(createAdapter(pub, sub));
  return async () => {
    // Stop taking other nodes' requests first (the adapter unsubscribes, then its connection closes),
    // and only then close the connection that answers them: no answer is written to a closed client.
    await Promise.allSettled([Promise.resolve(realtime.io.of('/').adapter.close())]);
    await Promise.allSettled([sub.quit()]);
    await Promise.allSettled([pub.quit()]);
  };
}

/** A Redis client for shared counters (REDIS_URL); errors surface on the commands that fail. */
export async function connectRedis(url: string): Promise<RedisClientType> {
  const client = createClient({ url }) as RedisClientType;
  client.on('error', () => {});
  await client.connect();
  return client;
}
