import type Handlebars from 'handlebars';
import { loadWhenUsed } from '../memory.js';

/**
 * Renders a message from its kind's templates inside the company's branded layout. Templates are
 * Handlebars: every `{{variable}}` is HTML-escaped in the e-mail's HTML (a client named
 * `<script>` arrives as text), and plain text and SMS are rendered without HTML escaping (they
 * are not HTML). `strict` makes a template naming a variable nobody gave fail at once.
 */

/** What a company's messages look like and who they come from (its `companies` row). */
export interface Brand {
  name: string;
  shortName: string;
  /** Reply-To of its e-mails. */
  email?: string;
  /** A CSS hex colour; anything else falls back to the default (it lands in a style attribute). */
  primaryColor?: string | null;
  /** An absolute URL of the logo image. */
  logoUrl?: string | null;
  smsSenderId?: string | null;
}

/** One message kind's wording: a code (shown boxed, masked when shown back) or a notice (can be unsubscribed from). */
export interface MessageTemplate {
  purpose: 'code' | 'notice';
  subject: string;
  /** The body as plain text; paragraphs separated by blank lines (the HTML gets one <p> each). */
  text: string;
  /** The SMS text; codes keep to one or two segments. */
  sms: string;
}

export interface RenderedMessage {
  subject: string;
  text: string;
  html: string;
  sms: string;
}

const DEFAULT_COLOR = '#1F4E79';
const HEX_COLOR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

/** Handlebars, loaded by the first message rendered. */
const handlebars = loadWhenUsed<typeof Handlebars>('handlebars');

const LAYOUT = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>{{subject}}</title></head>
<body style="margin:0;padding:0;background:#f4f5f7;font-family:Helvetica,Arial,sans-serif;color:#1d2433">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f4f5f7;padding:24px 0"><tr><td align="center">
<table role="presentation" width="600" cellpadding="0" cellspacing="0" style="max-width:600px;background:#ffffff;border-radius:6px;overflow:hidden">
<tr><td style="background:{{color}};padding:20px 24px;color:#ffffff;font-size:20px;font-weight:bold">
{{#if logoUrl}}<img src="{{logoUrl}}" alt="{{shortName}}" height="40" style="display:block;height:40px;border:0">{{else}}{{shortName}}{{/if}}
</td></tr>
<tr><td style="padding:24px;font-size:16px;line-height:1.5">
<h1 style="font-size:20px;margin:0 0 16px">{{subject}}</h1>
{{#each paragraphs}}<p style="margin:0 0 16px">{{this}}</p>{{/each}}
{{#if code}}<p style="margin:24px 0;text-align:center"><span style="display:inline-block;padding:12px 20px;border:2px solid {{color}};border-radius:6px;font-size:28px;letter-spacing:6px;font-weight:bold;font-family:Consolas,monospace">{{code}}</span></p>{{/if}}
</td></tr>
<tr><td style="padding:16px 24px;border-top:1px solid #e3e6ea;font-size:12px;color:#6b7280">
{{name}}{{#if email}} · <a href="mailto:{{email}}" style="color:{{color}}">{{email}}</a>{{/if}}
{{#if unsubscribe}}<br>You receive notices about your {{shortName}} account. <a href="{{unsubscribe}}" style="color:{{color}}">Unsubscribe from notices</a>.{{/if}}
</td></tr>
</table></td></tr></table></body></html>
`;
let layout: HandlebarsTemplateDelegate | undefined;

type Compiled = { subject: HandlebarsTemplateDelegate; text: HandlebarsTemplateDelegate; sms: HandlebarsTemplateDelegate };
const compiled = new WeakMap<MessageTemplate, Compiled>();

function compile(template: MessageTemplate): Compiled {
  let found = compiled.get(template);
  if (!found) {
    // Subjects, plain text and SMS are not HTML: no escaping there (the HTML layout escapes them).
    const options = { noEscape: true, strict: true, knownHelpersOnly: true };
    const engine = handlebars();
    found = { subject: engine.compile(template.subject, options), text: engine.compile(template.text, options), sms: engine.compile(template.sms, options) };
    compiled.set(template, found);
  }
  return found;
}

/** The mailto: link a notice's List-Unsubscribe header and footer give (RFC 2369), to the company's address. */
export const unsubscribeLink = (email: string | undefined) =>
  email ? `mailto:${email}?subject=${encodeURIComponent('Unsubscribe from notices')}` : undefined;

/**
 * Renders `template` with `vars` for `brand`. The brand's names are variables too
 * (`company`, `shortName`); `code` is the one-time code of a code message.
 */
export function renderMessage(template: MessageTemplate, vars: Record<string, string>, brand: Brand): RenderedMessage {
  const parts = compile(template);
  const values = { ...vars, company: brand.name, shortName: brand.shortName };
  const subject = parts.subject(values);
  const text = parts.text(values);
  const color = brand.primaryColor && HEX_COLOR.test(brand.primaryColor) ? brand.primaryColor : DEFAULT_COLOR;
  layout ??= handlebars().compile(LAYOUT, { strict: true, knownHelpersOnly: true });
  const html = layout({
    subject, color, name: brand.name, shortName: brand.shortName, email: brand.email ?? '', logoUrl: brand.logoUrl ?? '',
    paragraphs: text.split(/\n\s*\n/).map((paragraph) => paragraph.trim()).filter(Boolean),
    code: template.purpose === 'code' ? vars.code ?? '' : '',
    unsubscribe: template.purpose === 'notice' ? unsubscribeLink(brand.email) ?? '' : '',
  });
  return { subject, text, html, sms: parts.sms(values) };
}
