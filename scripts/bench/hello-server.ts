// Fastify's hello world, the machine's baseline for bench:server. Prints its address when ready.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
const address = await app.listen({ port: 0, host: '127.0.0.1' });
console.log(`listening on ${address}`);
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
