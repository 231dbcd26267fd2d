// An injection library that does nothing: the price of CUDA_INJECTION64_PATH itself.
extern "C" __attribute__((visibility("default"))) int InitializeInjection(void) { return 1; }
