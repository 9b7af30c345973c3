import { checkAssets, kindOf, POLICY_KINDS } from '../../server/domain/policies/kinds/index.js';
import { ApiError } from '../../server/platform/errors.js';

/**
 * The kinds' asset rules (server/domain/policies/kinds/) alone: no database, no HTTP. Each rule a
 * kind's module states, passed and broken, with the 400 message naming the field.
 */

const TODAY = { date: '2026-06-15', year: 2026 };
const TERM = { startDate: '2026-07-01', endDate: '2027-06-30' };
type Asset = Record<string, unknown>;
const check = (policyType: string, ...assets: Asset[]) => checkAssets(policyType, assets, TERM, TODAY);
/** The message of the 400 the rules answer, or nothing when they pass. */
const refusal = (policyType: string, ...assets: Asset[]) => {
  try {
    check(policyType, ...assets);
    return undefined;
  } catch (error) {
    if (error instanceof ApiError && error.statusCode === 400) return error.message;
    throw error;
  }
};

describe('every kind', () => {
  it('drops a price sent with an asset (the server stores its own beside it) and keeps the rest', () => {
    for (const { policyType } of POLICY_KINDS.filter((kind) => kind.policyType !== 'AUTO' && kind.policyType !== 'TRAVEL')) {
      expect(check(policyType, { sumInsured: 1000, premium: 5, note: 'x' })).toEqual([{ sumInsured: 1000, note: 'x' }]);
    }
  });

  it('names the asset by its index under the root', () => {
    expect(() => checkAssets('HOME', [{}, { dateOfBirth: TODAY.date }], TERM, TODAY, 'cart[7]')).toThrow('cart[7].assets[1].dateOfBirth must be in the past');
  });

  it('has a display name', () => {
    expect(kindOf('AUTO').name).toBe('Auto');
    expect(kindOf('MONEY').name).toBe('Money (cash in safe, cash in transit, hold-up)');
  });

  it('is unknown to the registry when the contract has no such type: a bug, not a 400', () => {
    expect(() => kindOf('PET')).toThrow('No policy kind PET');
  });
});

describe('kinds without rules of their own: a date of birth in the past', () => {
  it.each(['HOME', 'LIFE', 'GROUP_LIFE', 'HEALTH', 'WORKMENS_COMPENSATION'])('%s', (policyType) => {
    expect(refusal(policyType, { dateOfBirth: '1990-01-01' })).toBeUndefined();
    expect(refusal(policyType, { dateOfBirth: TODAY.date })).toBe('body.assets[0].dateOfBirth must be in the past');
  });
});

describe('AUTO', () => {
  const car = (overrides: Asset = {}): Asset => ({ usage: 'PRIVATE', yearOfMake: 2019, yearOfPurchase: 2021, yearOfRegistration: 2021, ...overrides });

  it('fills the excess, the property damage limit and the cover dates the contract defaults', () => {
    expect(check('AUTO', car())).toEqual([{ ...car(), applyExcess: true, thirdPartyPropertyDamage: 5000, ...TERM }]);
    expect(check('AUTO', car({ applyExcess: false, thirdPartyPropertyDamage: 8000 }))[0]).toMatchObject({ applyExcess: false, thirdPartyPropertyDamage: 8000 });
  });

  it('refuses a year after this one, and purchase or registration before the make', () => {
    expect(refusal('AUTO', car({ yearOfMake: 2027 }))).toBe('body.assets[0].yearOfMake must not be later than 2026');
    expect(refusal('AUTO', car({ yearOfPurchase: 2018 }))).toBe('body.assets[0].yearOfPurchase must not be before body.assets[0].yearOfMake');
    expect(refusal('AUTO', car({ yearOfRegistration: 2018 }))).toBe('body.assets[0].yearOfRegistration must not be before body.assets[0].yearOfMake');
  });

  it('allows a no-claim discount rate up to what the claim-free years earn for the usage', () => {
    // PRIVATE earns 0, 25, 30, 35, 45, 50; COMMERCIAL 0, 15, 20, 25 (capped at the top)
    expect(refusal('AUTO', car({ noClaimDiscountYears: 2, noClaimDiscountRate: 30 }))).toBeUndefined();
    expect(refusal('AUTO', car({ noClaimDiscountYears: 2, noClaimDiscountRate: 35 })))
      .toBe('body.assets[0].noClaimDiscountRate must not exceed 30, what 2 claim-free year(s) earn for PRIVATE usage');
    expect(refusal('AUTO', car({ usage: 'COMMERCIAL', noClaimDiscountYears: 9, noClaimDiscountRate: 30 })))
      .toBe('body.assets[0].noClaimDiscountRate must not exceed 25, what 9 claim-free year(s) earn for COMMERCIAL usage');
  });

  it('keeps the vehicle\'s own cover within the policy\'s', () => {
    expect(refusal('AUTO', car({ startDate: '2026-06-30' }))).toBe('body.assets[0].startDate must be within the policy\'s cover (2026-07-01 to 2027-06-30)');
    expect(refusal('AUTO', car({ endDate: '2027-07-01' }))).toBe('body.assets[0].endDate must be on or after its startDate and not after the policy\'s endDate (2027-06-30)');
  });

  it('is the one kind with a fleet discount', () => {
    expect(POLICY_KINDS.filter((kind) => kind.fleetDiscount).map((kind) => kind.policyType)).toEqual(['AUTO']);
  });
});

describe('TRAVEL', () => {
  const trip = (passport: Asset): Asset => ({ dateOfBirth: '1990-01-01', startDate: '2026-07-01', endDate: '2026-07-20', passport });

  it('needs a passport that lasts the trip and expires after it was issued', () => {
    expect(refusal('TRAVEL', trip({ issueDate: '2020-01-01', expiryDate: '2030-01-01' }))).toBeUndefined();
    expect(refusal('TRAVEL', trip({ expiryDate: '2026-07-19' }))).toBe('body.assets[0].passport.expiryDate must not be before the trip ends (2026-07-20)');
    expect(refusal('TRAVEL', trip({ issueDate: '2031-01-01', expiryDate: '2030-01-01' })))
      .toBe('body.assets[0].passport.expiryDate must not be before body.assets[0].passport.issueDate');
  });

  it('needs a traveller born in the past', () => {
    expect(refusal('TRAVEL', { ...trip({}), dateOfBirth: TODAY.date })).toBe('body.assets[0].dateOfBirth must be in the past');
  });
});

describe('the other kinds with rules of their own', () => {
  it('DIRECTORS_OFFICERS_LIABILITY: appointed today or earlier, qualified by this year', () => {
    expect(refusal('DIRECTORS_OFFICERS_LIABILITY', { dateAppointed: TODAY.date, yearOfQualification: 2026 })).toBeUndefined();
    expect(refusal('DIRECTORS_OFFICERS_LIABILITY', { dateAppointed: '2026-06-16' })).toBe('body.assets[0].dateAppointed must be today or earlier');
    expect(refusal('DIRECTORS_OFFICERS_LIABILITY', { yearOfQualification: 2027 })).toBe('body.assets[0].yearOfQualification must not be later than 2026');
  });

  it('PLANT_AND_MACHINERY: made by this year', () => {
    expect(refusal('PLANT_AND_MACHINERY', { yearOfManufacture: 2026 })).toBeUndefined();
    expect(refusal('PLANT_AND_MACHINERY', { yearOfManufacture: 2027 })).toBe('body.assets[0].yearOfManufacture must not be later than 2026');
  });

  it('ERECTION_ALL_RISKS: construction and testing each in order, testing not before construction', () => {
    const project = { constructionStartDate: '2026-07-01', constructionEndDate: '2027-01-31', testingStartDate: '2027-02-01', testingEndDate: '2027-02-28' };
    expect(refusal('ERECTION_ALL_RISKS', project)).toBeUndefined();
    expect(refusal('ERECTION_ALL_RISKS', { ...project, constructionEndDate: '2026-06-30' }))
      .toBe('body.assets[0].constructionEndDate must not be before body.assets[0].constructionStartDate');
    expect(refusal('ERECTION_ALL_RISKS', { ...project, testingEndDate: '2027-01-31' }))
      .toBe('body.assets[0].testingEndDate must not be before body.assets[0].testingStartDate');
    expect(refusal('ERECTION_ALL_RISKS', { ...project, testingStartDate: '2026-06-01', testingEndDate: '2026-06-02' }))
      .toBe('body.assets[0].testingStartDate must not be before body.assets[0].constructionStartDate');
  });
});
