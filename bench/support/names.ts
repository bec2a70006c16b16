/** Brazilian names and area codes the benchmarks seed contacts and staff with. */

/** Common first names, most common first. */
export const FIRST_NAMES = (
  'Ana Maria Mariana Juliana Fernanda Fernando Patrícia Aline Camila Amanda Bruna Letícia Gabriela ' +
  'Larissa Beatriz Carla Vanessa Luciana Renata Daniela José João Antônio Francisco Carlos Paulo Pedro ' +
  'Lucas Luiz Marcos Luis Gabriel Rafael Daniel Marcelo Bruno Eduardo Felipe Rodrigo Gustavo Thiago ' +
  'Ricardo Leonardo Diego Vinícius Matheus André Fábio Sérgio Roberto'
).split(' ');
/** Common surnames, most common first. */
export const LAST_NAMES = (
  'Silva Santos Oliveira Souza Rodrigues Ferreira Alves Pereira Lima Gomes Costa Ribeiro Martins ' +
  'Carvalho Almeida Lopes Soares Fernandes Vieira Barbosa Rocha Dias Nascimento Andrade Moreira Nunes ' +
  'Marques Machado Mendes Freitas Cardoso Ramos Gonçalves Santana Teixeira Araújo Pinto Moura Correia'
).split(' ');
/** Area codes of large Brazilian cities (mobile numbers are 55 + area code + 9 + 8 digits). */
export const AREA_CODES = [
  '11',
  '21',
  '31',
  '41',
  '51',
  '61',
  '71',
  '81',
  '85',
  '19',
  '27',
  '48',
  '62',
  '92',
];
