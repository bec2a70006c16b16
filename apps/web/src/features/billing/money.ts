/** BRL with a comma as the decimal separator (document 3 section 9): 'R$ 199,90'. */
export const formatBRL = (value: number) =>
  new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' }).format(value);
