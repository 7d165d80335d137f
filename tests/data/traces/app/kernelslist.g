MemcpyHtoD,0x00007f1234000000,4096
kernel-1.traceg

MemcpyDtoH,0x00007f1234000000,4096
kernel-2.traceg.xz
