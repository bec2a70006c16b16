/**
 * The automatic message texts (pt-BR, the product's default language for customers): the greeting
 * when an agent accepts a ticket, and the notices of a transfer to a queue or to an agent.
 */
export const AUTOMATIC_MESSAGES = {
  greeting: (contact: string, user: string) =>
    `Olá *${contact}*, meu nome é *${user}* e agora vou prosseguir com o seu atendimento!`,
  transferQueue: (queue: string) =>
    `Seu atendimento foi transferido para o setor *${queue}*. Aguarde, já vamos atender você!`,
  transferUser: (user: string) =>
    `Seu atendimento foi transferido para *${user}*. Aguarde, já vamos atender você!`,
};
