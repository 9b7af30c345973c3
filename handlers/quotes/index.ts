export { quoteHandlers } from './createQuote.js';
