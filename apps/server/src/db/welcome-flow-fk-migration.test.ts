/**
 * The migration that gives `whatsapps.flow_id_welcome` its foreign key first clears the ids left
 * dangling by flows deleted before it (or naming another company's flow), then adds the key.
 * Runs the migrations before it on a fresh PGlite, plants those rows, then runs the rest.
 */
import { expect, it } from 'vitest';
import { migratedBefore } from '../test/migrations.js';

const TARGET = 'connection-welcome-flow-fk';

it('clears dangling and foreign welcome flows, keeps valid ones, then deletes clear it', async () => {
  const { client, one, migrateRest } = await migratedBefore(TARGET);
  const a = await one(`insert into companies (name) values ('A') returning id`);
  const b = await one(`insert into companies (name) values ('B') returning id`);
  const flowA = await one(`insert into flows (company_id, name) values (${a}, 'Boas-vindas') returning id`);
  const flowB = await one(`insert into flows (company_id, name) values (${b}, 'De B') returning id`);
  const connection = (name: string, flow: number) =>
    one(
      `insert into whatsapps (company_id, name, flow_id_welcome) values (${a}, '${name}', ${flow}) returning id`,
    );
  const valid = await connection('valida', flowA);
  const dangling = await connection('apagada', flowB + 1000);
  const foreign = await connection('alheia', flowB);

  await migrateRest();
  const welcome = async () =>
    Object.fromEntries(
      (
        await client!.query<{ id: number; flow_id_welcome: number | null }>(
          'select id, flow_id_welcome from whatsapps',
        )
      ).rows.map((r) => [r.id, r.flow_id_welcome]),
    );
  expect(await welcome()).toEqual({ [valid]: flowA, [dangling]: null, [foreign]: null });

  await client.query(`delete from flows where id = ${flowA}`);
  expect(await welcome()).toEqual({ [valid]: null, [dangling]: null, [foreign]: null });
});
