import { inOrder } from './asset-rules.js';
import { defineKind } from './kind.js';

/** ERECTION_ALL_RISKS: a project an asset, its construction and testing periods each in order, testing not before construction. */
export const erectionAllRisks = defineKind({
  policyType: 'ERECTION_ALL_RISKS',
  name: 'Erection all risks',
  checkAsset: (asset, at) => {
    inOrder(asset, at, 'constructionStartDate', 'constructionEndDate');
    inOrder(asset, at, 'testingStartDate', 'testingEndDate');
    inOrder(asset, at, 'constructionStartDate', 'testingStartDate');
  },
});
