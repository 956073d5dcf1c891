#include "gemm.cu"
template __global__ void sr_gemm<V,false>(const T*, const T*, T*, int*, int,int,int,long long,long long,long long,long long,int,int,const unsigned*);
template __global__ void sr_gemm<V,true>(const T*, const T*, T*, int*, int,int,int,long long,long long,long long,long long,int,int,const unsigned*);
