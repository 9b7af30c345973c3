import { getEvent } from './getEvent.js';
import { listEvents } from './listEvents.js';

export const eventHandlers = { listEvents, getEvent };
