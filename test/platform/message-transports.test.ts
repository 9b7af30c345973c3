import { messageTransports } from '../../server/platform/messages/transports.js';
import { deliveryFailure } from '../helpers/messages.js';

/** Which transport each channel gets from the configuration, and what the sandbox's and the disabled ones answer. */

const email = { id: 'm1', to: 'kofi@example.com', fromName: 'Ɛnyɛ Insurance', subject: 'Your reset code', text: 'Your code is 482913' };
const sms = { id: 'm2', to: '+233241234567', from: 'ENYEINSURE', text: 'Your Coverline code is 482913' };

describe('message transports', () => {
  it('keeps both channels in the sandbox with nothing configured: an id, and one log line without the SMS text', async () => {
    const lines: string[] = [];
    const transports = messageTransports({ mode: 'sandbox', mailFrom: 'no-reply@coverline.local' }, (line) => lines.push(line));
    await expect(transports.email.sendEmail(email)).resolves.toEqual({ provider: 'sandbox', providerMessageId: 'sbx_msg_m1' });
    await expect(transports.sms.sendSms(sms)).resolves.toEqual({ provider: 'sandbox', providerMessageId: 'sbx_msg_m2' });
    expect(lines).toEqual(['[messages] email to kofi@example.com: Your reset code', '[messages] sms to +233241234567 from ENYEINSURE: 1 part']);
  });

  it('picks SMTP and Africa\'s Talking per configured channel, the sandbox for the other', () => {
    const smtpOnly = messageTransports({ mode: 'live', smtpUrl: 'smtp://127.0.0.1:2525', mailFrom: 'no-reply@coverline.example' });
    expect([smtpOnly.email.name, smtpOnly.sms.name]).toEqual(['smtp', 'sandbox']);
    smtpOnly.email.close?.();
    const smsOnly = messageTransports({ mode: 'live', mailFrom: 'no-reply@coverline.local', sms: { provider: 'africastalking', username: 'sandbox', apiKey: 'k', baseUrl: 'https://api.sandbox.africastalking.com' } });
    expect([smsOnly.email.name, smsOnly.sms.name]).toEqual(['sandbox', 'africastalking']);
  });

  it('refuses every message for good when disabled, saying why', async () => {
    const transports = messageTransports({ mode: 'disabled', smtpUrl: 'smtp://127.0.0.1:2525', mailFrom: 'no-reply@coverline.example' });
    for (const attempt of [transports.email.sendEmail(email), transports.sms.sendSms(sms)]) {
      expect(await deliveryFailure(attempt)).toMatchObject({ permanent: true, message: 'messages are disabled (MESSAGES_DISABLED=true)' });
    }
  });
});
