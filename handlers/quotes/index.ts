import { createQuote } from './createQuote.js';

export const quoteHandlers = {
  createAutoQuote: createQuote<'createAutoQuote'>(),
  createBurglaryQuote: createQuote<'createBurglaryQuote'>(),
  createContractorsAllRisksQuote: createQuote<'createContractorsAllRisksQuote'>(),
  createErectionAllRisksQuote: createQuote<'createErectionAllRisksQuote'>(),
  createGoodsInTransitQuote: createQuote<'createGoodsInTransitQuote'>(),
  createGroupPersonalAccidentQuote: createQuote<'createGroupPersonalAccidentQuote'>(),
  createHomeQuote: createQuote<'createHomeQuote'>(),
  createMarineCargoQuote: createQuote<'createMarineCargoQuote'>(),
  createProfessionalIndemnityQuote: createQuote<'createProfessionalIndemnityQuote'>(),
  createPublicLiabilityQuote: createQuote<'createPublicLiabilityQuote'>(),
};
