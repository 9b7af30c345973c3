import type { NamedTemplate } from '../../platform/notifier.js';

/**
 * Every message the API sends, one template per kind (Handlebars: `{{company}}` and `{{shortName}}`
 * are the sending company's; `{{code}}` a code's). Codes say what the code is for and how long it
 * lasts, and their SMS keeps to one or two segments; notices repeat the in-app notification's
 * title and body (`{{title}}`, `{{body}}`), so the app and the e-mail never tell two stories.
 */

/** How long a one-time code lasts, as the messages say it (server/platform/auth/one-time-codes.ts). */
const EXPIRES = 'It expires in 15 minutes.';

const code = (name: string, wording: Omit<NamedTemplate, 'name' | 'purpose'>): NamedTemplate => ({ name, purpose: 'code', ...wording });
const notice = (name: string): NamedTemplate => ({ name, purpose: 'notice', subject: '{{title}}', text: '{{body}}', sms: '{{shortName}}: {{body}}' });

export const MESSAGE_TEMPLATES = {
  passwordResetCode: code('password-reset-code', {
    subject: 'Your {{company}} password reset code',
    text: `Your {{company}} password reset code is {{code}}. ${EXPIRES}\n\nIf you did not ask for it, ignore this message: your password stays as it is.`,
    sms: `{{shortName}}: your password reset code is {{code}}. ${EXPIRES}`,
  }),
  verifyEmail: code('verify-email', {
    subject: 'Your {{company}} verification code',
    text: `Your {{company}} verification code is {{code}}. ${EXPIRES}`,
    sms: `{{shortName}}: your verification code is {{code}}. ${EXPIRES}`,
  }),
  verifyPhone: code('verify-phone', {
    subject: 'Your {{company}} verification code',
    text: `Your {{company}} verification code is {{code}}. ${EXPIRES}`,
    sms: `{{shortName}}: your verification code is {{code}}. ${EXPIRES}`,
  }),
  /** A client account a staff member opened: the client sets its own password with this code. */
  clientSetPasswordCode: code('set-password-code', {
    subject: 'Set your {{company}} password',
    text: 'An account with {{company}} was opened for you. To set its password, your code is {{code}}: enter it with your '
      + `username {{username}} in the app's password reset. ${EXPIRES} After that, ask the app for a new one.`,
    sms: `{{shortName}}: an account was opened for you. Your code is {{code}}: set its password in the app. ${EXPIRES}`,
  }),
  /** A staff member's first password, when whoever opened the account gave none. */
  staffWelcome: code('staff-welcome', {
    subject: 'Your {{company}} staff account',
    text: 'A {{company}} staff account was opened for you. Your password set-up code is {{code}} '
      + `(POST /staff/auth/password/reset, with your email {{username}} as the username). ${EXPIRES} `
      + 'Ask for a new one with POST /staff/auth/password/request-reset.',
    sms: `{{shortName}}: your staff account set-up code is {{code}}. Set your password with it and your email. ${EXPIRES}`,
  }),
  /** The first executive manager of a company the operator created. */
  executiveManagerSetPasswordCode: code('staff-password-set-code', {
    subject: 'Set your {{company}} password',
    text: 'You are the executive manager of {{company}} on Coverline. Set your password with the code {{code}} '
      + `(POST /staff/auth/password/reset with your email {{username}}). ${EXPIRES} `
      + 'Ask for a new one with POST /staff/auth/password/request-reset.',
    sms: `{{shortName}}: you are its executive manager on Coverline. Your password set-up code is {{code}}. ${EXPIRES}`,
  }),
  /** A new e-mail or phone number a manager set for another staff member: its owner confirms it with this code. */
  staffContactChangeCode: code('staff-contact-change-code', {
    subject: 'Confirm your new {{company}} staff contact',
    text: '{{requestedBy}} asked to make this address the contact of your {{company}} staff account ({{username}}). '
      + 'Your confirmation code is {{code}}: sign in and enter it (POST /staff/me/contact-changes/confirm). '
      + `${EXPIRES} Nothing changes until you confirm; if you did not expect this, ignore it and tell your manager.`,
    sms: `{{shortName}}: your staff phone confirmation code is {{code}}. Sign in and enter it to make this your phone. ${EXPIRES}`,
  }),
  welcome: notice('welcome'),
  passwordChanged: notice('password-changed'),
  passwordReset: notice('password-reset'),
  emailChanged: notice('email-changed'),
  phoneNumberChanged: notice('phone-changed'),
  paymentReceived: notice('payment-received'),
  policyRenewalReminder: notice('policy-renewal-reminder'),
  webhookEndpointDisabled: notice('webhook-endpoint-disabled'),
} satisfies Record<string, NamedTemplate>;

export type MessageKind = keyof typeof MESSAGE_TEMPLATES;
