import { daysSinceAnchor, examplesAnchorDate, shiftDatesInText, withExampleDatesFor } from '../../server/platform/example-dates.js';

/** A small contract with dates in every place an example can be, and in places that are not examples. */
const doc = {
  openapi: '3.1.0',
  info: { title: 'Dated', version: '1', 'x-examples-anchor-date': '2026-11-21', description: 'Written on 2026-11-21.' },
  paths: {
    '/claims': {
      post: {
        parameters: [
          { name: 'from', in: 'query', schema: { type: 'string', format: 'date', default: '2026-01-01' }, example: '2026-11-01' },
          { name: 'to', in: 'query', schema: { type: 'string', format: 'date' }, examples: { month: { summary: 'To 2026-11-30', value: '2026-11-30' } } },
        ],
        requestBody: {
          content: {
            'application/json': {
              schema: { $ref: '#/components/schemas/Claim' },
              examples: {
                motor: { summary: 'A loss on 2026-11-02', value: { dateOfLoss: '2026-11-02', reportedAt: '2026-11-03T10:15:00.000Z', amount: 2026, note: 'lost 2026-11-02, not 2026-02-30', id: '20261102-0000' } },
                shared: { $ref: '#/components/examples/Answer' },
              },
            },
          },
        },
        responses: {
          '400': { description: 'Bad', content: { 'application/json': { example: { message: 'body.startDate must not be in the past (today is 2026-11-21)' } } } },
        },
      },
    },
  },
  components: {
    schemas: {
      Claim: {
        type: 'object',
        properties: {
          dateOfLoss: { type: 'string', format: 'date', minimum: '2020-01-01', examples: ['2026-11-02'] },
          kind: { type: 'string', enum: ['2026-11-21'], const: '2026-11-21' },
          // A property named like the keywords: its schema is not an example value.
          example: { type: 'string', default: '2026-11-21', example: '2026-11-21' },
          examples: { type: 'string', description: 'Not before 2026-11-21', examples: ['1990-06-21T00:00:00+01:00'] },
        },
      },
    },
    examples: { Answer: { summary: 'As of 2026-11-21', value: { asOf: '2026-11-21', dates: ['2026-12-31', '2027-02-28'] } } },
  },
};

describe('example dates moved to today', () => {
  it('reads the anchor day from info and counts whole days to today\'s UTC date', () => {
    expect(examplesAnchorDate(doc)).toBe('2026-11-21');
    expect(daysSinceAnchor('2026-11-21', new Date('2026-11-21T23:59:59Z'))).toBe(0);
    expect(daysSinceAnchor('2026-11-21', new Date('2026-11-25T00:00:00Z'))).toBe(4);
    expect(daysSinceAnchor('2026-11-21', new Date('2026-11-01T12:00:00Z'))).toBe(-20);
    expect(() => examplesAnchorDate({ info: {} })).toThrow(/x-examples-anchor-date/);
    expect(() => examplesAnchorDate({ info: { 'x-examples-anchor-date': '2026-13-01' } })).toThrow(/x-examples-anchor-date/);
  });

  it('moves dates, the dates of date-times and dates in text across months, years and leap days; leaves non-dates', () => {
    expect(shiftDatesInText('2026-11-21', 10)).toBe('2026-12-01');
    expect(shiftDatesInText('2026-12-31T23:30:00.000Z', 1)).toBe('2027-01-01T23:30:00.000Z');
    expect(shiftDatesInText('2028-02-28', 1)).toBe('2028-02-29');
    expect(shiftDatesInText('cover (2026-11-21 to 2027-11-20)', -1)).toBe('cover (2026-11-20 to 2027-11-19)');
    expect(shiftDatesInText('2026-02-30 12026-11-21 2026-11-211', 1)).toBe('2026-02-30 12026-11-21 2026-11-211');
  });

  it('moves every example value of the document and nothing else', () => {
    const shifted = withExampleDatesFor(doc, new Date('2026-11-25T08:00:00Z'));
    expect(shifted).toEqual({
      ...doc,
      paths: {
        '/claims': {
          post: {
            parameters: [
              { name: 'from', in: 'query', schema: { type: 'string', format: 'date', default: '2026-01-01' }, example: '2026-11-05' },
              { name: 'to', in: 'query', schema: { type: 'string', format: 'date' }, examples: { month: { summary: 'To 2026-11-30', value: '2026-12-04' } } },
            ],
            requestBody: {
              content: {
                'application/json': {
                  schema: { $ref: '#/components/schemas/Claim' },
                  examples: {
                    motor: { summary: 'A loss on 2026-11-02', value: { dateOfLoss: '2026-11-06', reportedAt: '2026-11-07T10:15:00.000Z', amount: 2026, note: 'lost 2026-11-06, not 2026-02-30', id: '20261102-0000' } },
                    shared: { $ref: '#/components/examples/Answer' },
                  },
                },
              },
            },
            responses: {
              '400': { description: 'Bad', content: { 'application/json': { example: { message: 'body.startDate must not be in the past (today is 2026-11-25)' } } } },
            },
          },
        },
      },
      components: {
        schemas: {
          Claim: {
            type: 'object',
            properties: {
              dateOfLoss: { type: 'string', format: 'date', minimum: '2020-01-01', examples: ['2026-11-06'] },
              kind: { type: 'string', enum: ['2026-11-21'], const: '2026-11-21' },
              example: { type: 'string', default: '2026-11-21', example: '2026-11-25' },
              examples: { type: 'string', description: 'Not before 2026-11-21', examples: ['1990-06-25T00:00:00+01:00'] },
            },
          },
        },
        examples: { Answer: { summary: 'As of 2026-11-21', value: { asOf: '2026-11-25', dates: ['2027-01-04', '2027-03-04'] } } },
      },
    });
    // The anchor stays what it was, and the document given is not changed.
    expect(shifted.info).toEqual(doc.info);
    expect(doc.paths['/claims'].post.parameters[0].example).toBe('2026-11-01');
  });

  it('leaves the document as it is on the anchor day itself', () => {
    expect(withExampleDatesFor(doc, new Date('2026-11-21T18:00:00Z'))).toEqual(doc);
  });
});
