// The mail slice's public face. Its registration is ./slice.ts.
export { smtpSender, type Mailer } from './transport';
