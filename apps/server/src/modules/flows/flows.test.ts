import { type FlowGraph, ZFlow, ZFlowCampaign, ZFlowsPage, ZFlowWithGraph } from '@zapdesk/shared';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { flows, queues } from '../../db/schema/index.js';
import {
  bearer,
  createQueue,
  createSimulatorConnection,
  createUser,
  injectAs,
} from '../../test/factories.js';
import { multipartBody, PNG } from '../../test/multipart.js';
import { a, b, t, useTenantPairSuite } from '../../test/tenant-pair-suite.js';

let whatsappId: number;
useTenantPairSuite();
beforeAll(async () => {
  whatsappId = await createSimulatorConnection(t.app, a.admin);
});

const inject = injectAs(() => t.app);

async function newFlow(name = 'Fluxo de boas-vindas', user = a.admin) {
  const res = await inject('POST', '/api/flowbuilder', user, { name });
  expect(res.statusCode, res.body).toBe(201);
  return ZFlow.parse(res.json());
}

const id30 = (n: number) => `n${String(n).padStart(29, 'x')}`;
const START = { id: '1', type: 'start', position: { x: 0, y: 0 }, data: { label: 'Inicio do fluxo' } };
const node = (id: string, type: string, data: object, x = 300) => ({
  id,
  type,
  position: { x, y: 100 },
  data,
});
const edge = (source: string, target: string, sourceHandle: string | null = 'a') => ({
  id: `reactflow__edge-${source}${sourceHandle ?? ''}-${target}`,
  source,
  sourceHandle,
  target,
  targetHandle: null,
  animated: true,
  style: { stroke: '#555' },
});

/** A graph with every node type the speed-dial offers, connected from the start node. */
function fullGraph(queueId: number): FlowGraph {
  const [content, menu, question, interval, random, ticket, typebot, openai, text] = [
    1, 2, 3, 4, 5, 6, 7, 8, 9,
  ].map(id30);
  return {
    nodes: [
      START,
      node(content!, 'singleBlock', {
        seq: ['message1', 'interval1', 'img1', 'audio1', 'video1'],
        elements: [
          { number: 'message1', value: 'Olá {{nome}}!' },
          { number: 'interval1', value: '3' },
          { number: 'img1', value: 'a.png', original: 'foto.png' },
          { number: 'audio1', value: 'b.ogg', original: 'voz.ogg', record: true },
          { number: 'video1', value: 'c.mp4', original: 'video.mp4' },
        ],
      }),
      node(menu!, 'menu', {
        message: 'Escolha',
        arrayOption: [
          { number: 1, value: 'Vendas' },
          { number: 2, value: 'Suporte' },
        ],
      }),
      node(question!, 'question', { typebotIntegration: { message: 'Seu nome?', answerKey: 'nome' } }),
      node(interval!, 'interval', { label: 'Intervalo', sec: 120 }),
      node(random!, 'randomizer', { percent: 30 }),
      node(ticket!, 'ticket', { data: { id: queueId, name: 'Vendas', color: '#112233' } }),
      node(typebot!, 'typebot', {
        typebotIntegration: {
          name: 'Bot',
          projectName: 'Bot',
          urlN8N: 'https://typebot.example.test',
          typebotSlug: 'loja',
          typebotExpires: 1,
          typebotDelayMessage: 1000,
          typebotKeywordFinish: '',
          typebotKeywordRestart: '',
          typebotUnknownMessage: '',
          typebotRestartMessage: '',
        },
      }),
      node(openai!, 'openai', {
        typebotIntegration: {
          name: 'IA',
          prompt: 'Responda com educação',
          voice: 'texto',
          voiceKey: '',
          voiceRegion: '',
          maxTokens: 100,
          temperature: 1,
          apiKey: 'sk-test-key-1234567890',
          queueId,
          maxMessages: 10,
        },
      }),
      node(text!, 'message', { label: 'Até logo' }),
    ],
    connections: [
      edge('1', content!),
      edge(content!, question!),
      edge(question!, menu!),
      edge(menu!, interval!, 'a1'),
      edge(menu!, random!, 'a2'),
      edge(random!, ticket!, 'a'),
      edge(random!, typebot!, 'b'),
      edge(interval!, openai!),
      edge(openai!, text!),
      // A loop back to the menu passes through a waiting node: allowed.
      edge(text!, menu!, null),
    ],
  } as FlowGraph;
}

async function save(flowId: number, graph: object, user = a.admin) {
  return inject('POST', '/api/flowbuilder/flow', user, { idFlow: flowId, ...graph });
}

describe('flows', () => {
  it('creates, lists with search and paging, renames, switches off and deletes', async () => {
    const flow = await newFlow('Atendimento inicial');
    expect(flow).toMatchObject({ name: 'Atendimento inicial', active: true, broken: false });
    const list = ZFlowsPage.parse(
      (await inject('GET', '/api/flowbuilder?searchParam=inicial', a.admin)).json(),
    );
    expect(list.flows.map((f) => f.id)).toContain(flow.id);
    expect((await inject('GET', '/api/flowbuilder?searchParam=nada-assim', a.admin)).json()).toEqual({
      flows: [],
      hasMore: false,
    });
    for (let i = 0; i < 21; i++) await newFlow(`Paginado ${String(i).padStart(2, '0')}`);
    const first = ZFlowsPage.parse(
      (await inject('GET', '/api/flowbuilder?searchParam=Paginado', a.admin)).json(),
    );
    const second = ZFlowsPage.parse(
      (await inject('GET', '/api/flowbuilder?searchParam=Paginado&pageNumber=2', a.admin)).json(),
    );
    expect([first.flows.length, first.hasMore, second.flows.length, second.hasMore]).toEqual([
      20,
      true,
      1,
      false,
    ]);

    const renamed = await inject('PUT', '/api/flowbuilder', a.admin, { flowId: flow.id, name: 'Recepção' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ id: flow.id, name: 'Recepção', active: true });
    const off = await inject('PUT', '/api/flowbuilder', a.admin, { flowId: flow.id, active: false });
    expect(off.json()).toMatchObject({ name: 'Recepção', active: false });

    expect((await inject('DELETE', `/api/flowbuilder/${flow.id}`, a.admin)).statusCode).toBe(204);
    expect((await inject('GET', `/api/flowbuilder/flow/${flow.id}`, a.admin)).statusCode).toBe(404);
    expect((await inject('DELETE', `/api/flowbuilder/${flow.id}`, a.admin)).statusCode).toBe(404);
  });

  it("clears a connection's welcome flow when the flow is deleted", async () => {
    const flow = await newFlow('Boas-vindas apagadas');
    const set = await inject('PUT', `/api/whatsapp/${whatsappId}`, a.admin, { flowIdWelcome: flow.id });
    expect(set.json().flowIdWelcome).toBe(flow.id);
    expect((await inject('DELETE', `/api/flowbuilder/${flow.id}`, a.admin)).statusCode).toBe(204);
    const after = await inject('GET', `/api/whatsapp/${whatsappId}`, a.admin);
    expect(after.json().flowIdWelcome).toBeNull();
  });

  it('refuses names outside 2..50 characters', async () => {
    for (const name of ['a', 'x'.repeat(51), '  ']) {
      const res = await inject('POST', '/api/flowbuilder', a.admin, { name });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'name' });
    }
  });

  it('answers a null graph before the first save, then reloads exactly what was saved', async () => {
    const flow = await newFlow();
    const empty = ZFlowWithGraph.parse(
      (await inject('GET', `/api/flowbuilder/flow/${flow.id}`, a.admin)).json(),
    );
    expect(empty.flow).toMatchObject({ id: flow.id, flow: null });

    const graph = fullGraph(a.queueId);
    const res = await save(flow.id, graph);
    expect(res.statusCode, res.body).toBe(200);
    const loaded = ZFlowWithGraph.parse(
      (await inject('GET', `/api/flowbuilder/flow/${flow.id}`, a.admin)).json(),
    );
    const masked = structuredClone(graph);
    const openai = masked.nodes.find((n) => n.type === 'openai')!;
    (openai.data.typebotIntegration as { apiKey: string }).apiKey = 'sk-…7890';
    expect(loaded.flow.flow).toEqual(masked);

    // The key is stored encrypted; saving the masked graph back keeps it.
    const [row] = await t.app.ctx.db.select({ graph: flows.graph }).from(flows).where(eq(flows.id, flow.id));
    expect(JSON.stringify(row!.graph)).not.toContain('sk-test-key');
    expect((await save(flow.id, loaded.flow.flow!)).statusCode).toBe(200);
    const again = ZFlowWithGraph.parse(
      (await inject('GET', `/api/flowbuilder/flow/${flow.id}`, a.admin)).json(),
    );
    expect(again.flow.flow).toEqual(masked);
  });

  it('duplicates a flow with its graph', async () => {
    const flow = await newFlow('Original');
    await save(flow.id, fullGraph(a.queueId));
    const res = await inject('POST', '/api/flowbuilder/duplicate', a.admin, { flowId: flow.id });
    expect(res.statusCode, res.body).toBe(201);
    const copy = ZFlow.parse(res.json());
    expect(copy.id).not.toBe(flow.id);
    expect(copy.name).toBe('Original (cópia)');
    const [x, y] = await Promise.all(
      [flow.id, copy.id].map(
        async (id) => (await inject('GET', `/api/flowbuilder/flow/${id}`, a.admin)).json().flow.flow,
      ),
    );
    expect(y).toEqual(x);
  });

  it('flags a flow whose ticket node names a deleted queue', async () => {
    const queueId = await createQueue(t.app, a.companyId);
    const flow = await newFlow('Com fila');
    const graph = {
      nodes: [START, node(id30(1), 'ticket', { data: { id: queueId } })],
      connections: [edge('1', id30(1))],
    };
    expect((await save(flow.id, graph)).statusCode).toBe(200);
    const broken = async () =>
      ZFlowsPage.parse(
        (await inject('GET', '/api/flowbuilder?searchParam=Com fila', a.admin)).json(),
      ).flows.find((f) => f.id === flow.id)!.broken;
    expect(await broken()).toBe(false);
    await t.app.ctx.db.delete(queues).where(eq(queues.id, queueId));
    expect(await broken()).toBe(true);
  });

  describe('refuses a graph that breaks a rule, naming the node', () => {
    const cases: Array<[string, () => object, object]> = [
      [
        'no start node',
        () => ({ nodes: [node(id30(1), 'message', { label: 'oi' })], connections: [] }),
        { reason: 'startNode' },
      ],
      [
        'a start node with another id',
        () => ({ nodes: [{ ...START, id: 'abc' }], connections: [] }),
        { reason: 'startNode', node: 'abc' },
      ],
      [
        'two nodes with one id',
        () => ({
          nodes: [START, node(id30(1), 'message', { label: 'a' }), node(id30(1), 'message', { label: 'b' })],
          connections: [],
        }),
        { reason: 'duplicateNode', node: id30(1) },
      ],
      [
        'an interval of 0 seconds',
        () => ({ nodes: [START, node(id30(1), 'interval', { sec: 0 })], connections: [] }),
        { reason: 'invalidData', node: id30(1), field: 'sec' },
      ],
      [
        'an interval over 120 seconds',
        () => ({ nodes: [START, node(id30(1), 'interval', { sec: 121 })], connections: [] }),
        { reason: 'invalidData', node: id30(1), field: 'sec' },
      ],
      [
        'a randomizer percent off the steps of 10',
        () => ({ nodes: [START, node(id30(1), 'randomizer', { percent: 35 })], connections: [] }),
        { reason: 'invalidData', node: id30(1), field: 'percent' },
      ],
      [
        'an empty content text',
        () => ({
          nodes: [
            START,
            node(id30(1), 'singleBlock', {
              seq: ['message1'],
              elements: [{ number: 'message1', value: ' ' }],
            }),
          ],
          connections: [],
        }),
        { reason: 'invalidData', node: id30(1), field: 'elements.0.value' },
      ],
      [
        'a menu without options',
        () => ({
          nodes: [START, node(id30(1), 'menu', { message: 'Escolha', arrayOption: [] })],
          connections: [],
        }),
        { reason: 'invalidData', node: id30(1), field: 'arrayOption' },
      ],
      [
        'a question without its variable',
        () => ({
          nodes: [START, node(id30(1), 'question', { typebotIntegration: { message: 'Nome?' } })],
          connections: [],
        }),
        { reason: 'invalidData', node: id30(1), field: 'typebotIntegration.answerKey' },
      ],
      [
        'a ticket node without a queue',
        () => ({ nodes: [START, node(id30(1), 'ticket', {})], connections: [] }),
        { reason: 'invalidData', node: id30(1), field: 'data' },
      ],
      [
        'a connection to a missing node',
        () => ({ nodes: [START], connections: [edge('1', 'ghost')] }),
        { reason: 'unknownNode', node: 'ghost' },
      ],
      [
        'a connection into the start node',
        () => ({
          nodes: [START, node(id30(1), 'menu', { message: 'm', arrayOption: [{ number: 1, value: 'x' }] })],
          connections: [edge(id30(1), '1', 'a1')],
        }),
        { reason: 'unknownNode' },
      ],
      [
        'a connection from a handle the node lacks',
        () => ({
          nodes: [
            START,
            node(id30(1), 'menu', { message: 'm', arrayOption: [{ number: 1, value: 'x' }] }),
            node(id30(2), 'message', { label: 'x' }),
          ],
          connections: [edge(id30(1), id30(2), 'a7')],
        }),
        { reason: 'unknownHandle', node: id30(1) },
      ],
      [
        'two connections from one handle',
        () => ({
          nodes: [START, node(id30(1), 'message', { label: 'a' }), node(id30(2), 'message', { label: 'b' })],
          connections: [edge('1', id30(1)), edge('1', id30(2))],
        }),
        { reason: 'handleInUse', node: '1' },
      ],
      [
        'a cycle without a waiting node',
        () => ({
          nodes: [
            START,
            node(id30(1), 'message', { label: 'a' }),
            node(id30(2), 'randomizer', { percent: 50 }),
          ],
          connections: [edge('1', id30(1)), edge(id30(1), id30(2)), edge(id30(2), id30(1), 'a')],
        }),
        { reason: 'cycleWithoutWait' },
      ],
      [
        "another company's queue",
        () => ({ nodes: [START, node(id30(1), 'ticket', { data: { id: b.queueId } })], connections: [] }),
        { reason: 'queueNotFound', node: id30(1) },
      ],
    ];
    for (const [name, graph, expected] of cases) {
      it(name, async () => {
        const flow = await newFlow();
        const res = await save(flow.id, graph());
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json()).toMatchObject({ error: 'ERR_FLOW_INVALID', ...expected });
        expect(
          (await inject('GET', `/api/flowbuilder/flow/${flow.id}`, a.admin)).json().flow.flow,
        ).toBeNull();
      });
    }

    it('an unknown node type (schema)', async () => {
      const flow = await newFlow();
      const res = await save(flow.id, { nodes: [START, node(id30(1), 'teleport', {})], connections: [] });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION' });
    });
  });

  it('refuses a Typebot node whose URL is not public (ERR_URL_NOT_ALLOWED naming the node)', async () => {
    const flow = await newFlow('Typebot interno');
    const graph = fullGraph(a.queueId);
    const typebot = graph.nodes.find((n) => n.type === 'typebot')!;
    const at = (urlN8N: string) => ({
      ...graph,
      nodes: graph.nodes.map((n) =>
        n === typebot
          ? {
              ...n,
              data: {
                ...n.data,
                typebotIntegration: {
                  ...(n.data as { typebotIntegration: object }).typebotIntegration,
                  urlN8N,
                },
              },
            }
          : n,
      ),
    });
    for (const url of [
      'http://127.0.0.1:3000',
      'http://[::1]/',
      'http://169.254.169.254/',
      'http://2130706433/',
    ]) {
      const res = await save(flow.id, at(url));
      expect(res.statusCode, url).toBe(400);
      expect(res.json(), url).toMatchObject({
        error: 'ERR_URL_NOT_ALLOWED',
        node: typebot.id,
        field: 'typebotIntegration.urlN8N',
      });
    }
    // Positive control: a public address is saved.
    const ok = await save(flow.id, at('https://203.0.114.7/typebot'));
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it("answers 404 for another company's flow", async () => {
    const theirs = await newFlow('Deles', b.admin);
    expect((await inject('GET', `/api/flowbuilder/flow/${theirs.id}`, a.admin)).statusCode).toBe(404);
    expect((await save(theirs.id, { nodes: [START], connections: [] })).statusCode).toBe(404);
    expect(
      (await inject('PUT', '/api/flowbuilder', a.admin, { flowId: theirs.id, name: 'Roubado' })).statusCode,
    ).toBe(404);
    expect(
      (await inject('POST', '/api/flowbuilder/duplicate', a.admin, { flowId: theirs.id })).statusCode,
    ).toBe(404);
    expect((await inject('DELETE', `/api/flowbuilder/${theirs.id}`, a.admin)).statusCode).toBe(404);
    expect((await inject('GET', `/api/flowbuilder/flow/${theirs.id}`, b.admin)).statusCode).toBe(200);
  });
});

const pad = (head: Buffer, size = 4100) =>
  Buffer.concat([head, Buffer.alloc(Math.max(0, size - head.length))]);
const MP3 = pad(Buffer.from([0xff, 0xfb, 0x90, 0x64]));
const MP4 = pad(
  Buffer.concat([
    Buffer.from([0, 0, 0, 0x18]),
    Buffer.from('ftypisom'),
    Buffer.from([0, 0, 2, 0]),
    Buffer.from('isomiso2'),
  ]),
);
const OPUS = pad(Buffer.concat([Buffer.from('OggS'), Buffer.alloc(24), Buffer.from('OpusHead')]));
const PDF = Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

/** The builder's form: each file as a `medias` part. */
const multipart = (files: Array<[Buffer, string]>) =>
  multipartBody(
    files.map(([data, fileName]) => ({
      name: 'medias',
      value: data,
      filename: fileName,
      type: 'application/octet-stream',
    })),
  );

async function upload(kind: string, files: Array<[Buffer, string]>, user = a.admin) {
  const body = multipart(files);
  return t.app.inject({
    method: 'POST',
    url: `/api/flowbuilder/${kind}`,
    headers: { ...bearer(user), ...body.headers },
    payload: body.payload,
  });
}

describe('flow uploads', () => {
  it('stores images, audio and video and serves them only to the company', async () => {
    const img = await upload('img', [[PNG, 'foto.png']]);
    expect(img.statusCode, img.body).toBe(200);
    const [name] = img.json() as string[];
    expect(name).toMatch(/^[0-9a-f]{32}\.png$/);
    const mine = await inject('GET', `/api/public/${name}`, a.agent);
    expect(mine.statusCode).toBe(200);
    expect(mine.rawPayload.equals(PNG)).toBe(true);
    expect((await inject('GET', `/api/public/${name}`, b.admin)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/public/${name}` })).statusCode).toBe(401);

    const audio = await upload('audio', [
      [MP3, 'voz.mp3'],
      [OPUS, 'voz.opus'],
      [MP4, 'video.mp4'],
    ]);
    expect(audio.statusCode, audio.body).toBe(200);
    expect((audio.json() as string[]).map((n) => n.split('.')[1])).toEqual(['mp3', 'opus', 'mp4']);
    const content = await upload('content', [
      [PNG, 'a.png'],
      [MP3, 'b.mp3'],
    ]);
    expect(content.json()).toHaveLength(2);
  });

  it('refuses other types and files over the limits', async () => {
    expect((await upload('img', [[PDF, 'x.pdf']])).statusCode).toBe(415);
    expect((await upload('img', [[MP3, 'x.png']])).statusCode).toBe(415);
    expect((await upload('audio', [[PNG, 'x.png']])).statusCode).toBe(415);
    const bigImage = await upload('img', [[Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)]), 'big.png']]);
    expect(bigImage.statusCode).toBe(413);
    expect(bigImage.json()).toMatchObject({ error: 'ERR_PAYLOAD_TOO_LARGE', limit: 2 * 1024 * 1024 });
    const bigAudio = await upload('audio', [[pad(MP3, 5 * 1024 * 1024 + 1), 'big.mp3']]);
    expect(bigAudio.json()).toMatchObject({ error: 'ERR_PAYLOAD_TOO_LARGE', limit: 5 * 1024 * 1024 });
    const bigVideo = await upload('audio', [[pad(MP4, 20 * 1024 * 1024 + 1), 'big.mp4']]);
    expect(bigVideo.json()).toMatchObject({ error: 'ERR_PAYLOAD_TOO_LARGE', limit: 20 * 1024 * 1024 });
    const none = await inject('POST', '/api/flowbuilder/img', a.admin, {});
    expect(none.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'medias' });
  });
});

describe('flow campaigns', () => {
  it('creates, lists, reads, edits, switches and deletes', async () => {
    const flow = await newFlow('Fluxo da campanha');
    const res = await inject('POST', '/api/flowcampaign', a.admin, {
      name: 'Promo',
      flowId: flow.id,
      whatsappId,
      phrase: 'Oi',
    });
    expect(res.statusCode, res.body).toBe(201);
    const campaign = ZFlowCampaign.parse(res.json());
    expect(campaign).toMatchObject({
      name: 'Promo',
      phrase: 'Oi',
      status: true,
      flow: { id: flow.id, name: 'Fluxo da campanha' },
      whatsapp: { id: whatsappId },
    });
    const list = (await inject('GET', '/api/flowcampaign', a.agent)).json();
    expect(list.flow.map((c: { id: number }) => c.id)).toContain(campaign.id);
    expect(list.hasMore).toBe(false);
    expect((await inject('GET', `/api/flowcampaign/${campaign.id}`, a.agent)).json()).toEqual(campaign);

    const off = await inject('PUT', '/api/flowcampaign', a.admin, { id: campaign.id, status: false });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toMatchObject({ name: 'Promo', phrase: 'Oi', status: false });

    expect((await inject('DELETE', `/api/flowcampaign/${campaign.id}`, a.admin)).statusCode).toBe(204);
    expect((await inject('GET', `/api/flowcampaign/${campaign.id}`, a.admin)).statusCode).toBe(404);
  });

  it('requires name, flow, connection and phrase', async () => {
    const flow = await newFlow();
    const full = { name: 'Promo', flowId: flow.id, whatsappId, phrase: 'oi' };
    for (const field of ['name', 'flowId', 'whatsappId', 'phrase'] as const) {
      const res = await inject('POST', '/api/flowcampaign', a.admin, {
        ...full,
        [field]: field.endsWith('Id') ? undefined : ' ',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION', field });
    }
  });

  it("refuses another company's flow or connection and hides its campaigns", async () => {
    const mine = await newFlow();
    const theirs = await newFlow('Deles', b.admin);
    const theirConnection = await createSimulatorConnection(t.app, b.admin);
    const body = { name: 'Promo', flowId: mine.id, whatsappId, phrase: 'oi' };
    expect(
      (await inject('POST', '/api/flowcampaign', a.admin, { ...body, flowId: theirs.id })).statusCode,
    ).toBe(404);
    expect(
      (await inject('POST', '/api/flowcampaign', a.admin, { ...body, whatsappId: theirConnection }))
        .statusCode,
    ).toBe(404);
    const theirCampaign = (
      await inject('POST', '/api/flowcampaign', b.admin, {
        ...body,
        flowId: theirs.id,
        whatsappId: theirConnection,
      })
    ).json();
    expect((await inject('GET', `/api/flowcampaign/${theirCampaign.id}`, a.admin)).statusCode).toBe(404);
    expect(
      (await inject('PUT', '/api/flowcampaign', a.admin, { id: theirCampaign.id, name: 'x' })).statusCode,
    ).toBe(404);
    expect((await inject('DELETE', `/api/flowcampaign/${theirCampaign.id}`, a.admin)).statusCode).toBe(404);
  });
});

describe('who may change flows (document 1: the Flows submenu is admin)', () => {
  it('lets an agent read flows and flow campaigns but refuses every write with 403', async () => {
    const flow = await newFlow('Fluxo só do admin');
    expect((await save(flow.id, { nodes: [START], connections: [] })).statusCode).toBe(200);
    const created = await inject('POST', '/api/flowcampaign', a.admin, {
      name: 'Frase do admin',
      flowId: flow.id,
      whatsappId,
      phrase: 'quero',
    });
    const campaign = ZFlowCampaign.parse(created.json());

    // Reads: the connection modal lists the flows for any user.
    expect((await inject('GET', '/api/flowbuilder', a.agent)).statusCode).toBe(200);
    expect((await inject('GET', `/api/flowbuilder/flow/${flow.id}`, a.agent)).statusCode).toBe(200);
    expect((await inject('GET', '/api/flowcampaign', a.agent)).statusCode).toBe(200);
    expect((await inject('GET', `/api/flowcampaign/${campaign.id}`, a.agent)).statusCode).toBe(200);

    const writes: [method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object][] = [
      ['POST', '/api/flowbuilder', { name: 'Fluxo do agente' }],
      ['PUT', '/api/flowbuilder', { flowId: flow.id, name: 'Renomeado' }],
      ['PUT', '/api/flowbuilder', { flowId: flow.id, active: false }],
      ['POST', '/api/flowbuilder/duplicate', { flowId: flow.id }],
      ['POST', '/api/flowbuilder/flow', { idFlow: flow.id, nodes: [START], connections: [] }],
      ['DELETE', `/api/flowbuilder/${flow.id}`],
      ['POST', '/api/flowbuilder/img', {}],
      ['POST', '/api/flowbuilder/audio', {}],
      ['POST', '/api/flowbuilder/content', {}],
      ['POST', '/api/flowcampaign', { name: 'Do agente', flowId: flow.id, whatsappId, phrase: 'oi' }],
      ['PUT', '/api/flowcampaign', { id: campaign.id, status: false }],
      ['DELETE', `/api/flowcampaign/${campaign.id}`],
    ];
    for (const [method, url, payload] of writes) {
      const res = await inject(method, url, a.agent, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json(), `${method} ${url}`).toEqual({ error: 'ERR_NO_PERMISSION' });
    }

    // Nothing changed.
    const after = ZFlowWithGraph.parse(
      (await inject('GET', `/api/flowbuilder/flow/${flow.id}`, a.admin)).json(),
    );
    expect(after.flow).toMatchObject({ name: 'Fluxo só do admin', active: true });
    const agentFlows = ZFlowsPage.parse(
      (await inject('GET', '/api/flowbuilder?searchParam=agente', a.admin)).json(),
    );
    expect(agentFlows.flows).toEqual([]);
    expect((await inject('GET', `/api/flowcampaign/${campaign.id}`, a.admin)).json()).toMatchObject({
      status: true,
    });
  });

  it('lets a super user without the admin profile write', async () => {
    const root = await createUser(t.app, a.companyId, { profile: 'user', super: true });
    const res = await inject('POST', '/api/flowbuilder', root, { name: 'Fluxo do super' });
    expect(res.statusCode, res.body).toBe(201);
  });
});
