// The Stripe stand-in as its own process (the end-to-end server starts it): --port N.
import { startStripeStandIn } from './stripe-stand-in.mjs';

const portIndex = process.argv.indexOf('--port');
const { url } = await startStripeStandIn({ port: portIndex > 0 ? Number(process.argv[portIndex + 1]) : 0 });
console.log(`stripe stand-in listening on ${url}`);
