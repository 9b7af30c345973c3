import { createDeliveryAddress } from './createDeliveryAddress.js';
import { deleteDeliveryAddress } from './deleteDeliveryAddress.js';
import { getDeliveryAddress } from './getDeliveryAddress.js';
import { listDeliveryAddresses } from './listDeliveryAddresses.js';
import { updateDeliveryAddress } from './updateDeliveryAddress.js';

export const deliveryAddressHandlers = {
  createDeliveryAddress, listDeliveryAddresses, getDeliveryAddress, updateDeliveryAddress, deleteDeliveryAddress,
};
