import { once } from 'node:events';
import net, { type AddressInfo } from 'node:net';
import { DeliveryFailure } from '../../server/platform/messages/transport.js';

/** The DeliveryFailure a send ends with (the test fails if it ends otherwise). */
export async function deliveryFailure(send: Promise<unknown>): Promise<DeliveryFailure> {
  const error = await send.then(() => undefined, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(DeliveryFailure);
  return error as DeliveryFailure;
}

/** A port on 127.0.0.1 that was just free and is closed again: connecting to it is refused. */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
