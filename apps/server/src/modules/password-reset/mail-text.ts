import type { Language } from '@zapdesk/shared';

/** The password-reset e-mail in the user's language (pt, en, es). `minutes` is the code's lifetime. */
export function resetMail(
  language: Language,
  values: { name: string; code: string; minutes: number },
): { subject: string; text: string } {
  const { name, code, minutes } = values;
  switch (language) {
    case 'en':
      return {
        subject: 'Zapdesk: your password reset code',
        text: `Hello, ${name}.\n\nYour verification code to choose a new password is:\n\n${code}\n\nIt is valid for ${minutes} minutes and can be used once. If you did not ask for it, ignore this message: your password stays the same.\n`,
      };
    case 'es':
      return {
        subject: 'Zapdesk: tu código para restablecer la contraseña',
        text: `Hola, ${name}.\n\nTu código de verificación para elegir una nueva contraseña es:\n\n${code}\n\nEs válido durante ${minutes} minutos y se puede usar una sola vez. Si no lo pediste, ignora este mensaje: tu contraseña no cambia.\n`,
      };
    default:
      return {
        subject: 'Zapdesk: seu código para redefinir a senha',
        text: `Olá, ${name}.\n\nSeu código de verificação para escolher uma nova senha é:\n\n${code}\n\nEle vale por ${minutes} minutos e pode ser usado uma única vez. Se você não pediu, ignore esta mensagem: sua senha continua a mesma.\n`,
      };
  }
}
