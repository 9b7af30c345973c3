import { getProduct } from './getProduct.js';
import { listProducts } from './listProducts.js';

export const productHandlers = { listProducts, getProduct };
