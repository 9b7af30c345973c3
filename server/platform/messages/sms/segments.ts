import { SegmentedMessage } from 'sms-segments-calculator';

/**
 * How many SMS parts a text is billed as: GSM-7 when every character is in the GSM alphabet (160
 * characters in one part, 153 a part once split; extension characters such as `€` or `{` count
 * twice), else UCS-2 (70, then 67). Counted by Twilio's sms-segments-calculator.
 */
export function smsSegments(text: string): number {
  return new SegmentedMessage(text).segmentsCount;
}
