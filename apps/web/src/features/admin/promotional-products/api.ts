export const promotionalProductKeys = {
  all: ['admin', 'promotional-products'] as const,
};
