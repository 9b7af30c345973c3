export const deliveryAddressHandlers = {};
