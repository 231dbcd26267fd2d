#pragma once
// The allocations the lab compares, each owned by a scope: pitched 2-D memory
// (cudaMallocPitch), pitched volumes (cudaMalloc3D), CUDA arrays (cudaMallocArray,
// cudaMalloc3DArray) and texture objects. 000_e84d1941bb8bbaf9.txt V-C/V-D and
// 001_a3a2ccee8305185b.txt show the calls.
#include <cstddef>

#include "cuda_check.h"

namespace labbook::lab {

/// `height` rows of `width_bytes` bytes, each row starting `pitch()` bytes after the last.
class PitchedMemory {
 public:
  PitchedMemory(std::size_t width_bytes, std::size_t height) : height_(height) {
    CUDA_CHECK(cudaMallocPitch(&data_, &pitch_, width_bytes, height));
  }
  ~PitchedMemory() { cudaFree(data_); }
  PitchedMemory(const PitchedMemory&) = delete;
  PitchedMemory& operator=(const PitchedMemory&) = delete;

  float* floats() const { return static_cast<float*>(data_); }
  std::size_t pitch() const { return pitch_; }
  /// Every byte of every row, padding included, to 0xFF (NaN for floats).
  void poison() const { CUDA_CHECK(cudaMemset2D(data_, pitch_, 0xFF, pitch_, height_)); }

 private:
  void* data_ = nullptr;
  std::size_t pitch_ = 0, height_;
};

/// cudaMalloc3D: a volume `extent` (width in bytes) with padded rows.
class PitchedVolume {
 public:
  explicit PitchedVolume(cudaExtent extent) : extent_(extent) { CUDA_CHECK(cudaMalloc3D(&ptr_, extent)); }
  ~PitchedVolume() { cudaFree(ptr_.ptr); }
  PitchedVolume(const PitchedVolume&) = delete;
  PitchedVolume& operator=(const PitchedVolume&) = delete;

  const cudaPitchedPtr& ptr() const { return ptr_; }
  const cudaExtent& extent() const { return extent_; }
  void poison() const { CUDA_CHECK(cudaMemset3D(ptr_, 0xFF, extent_)); }

 private:
  cudaExtent extent_;
  cudaPitchedPtr ptr_{};
};

/// A CUDA array of floats: 2-D (cudaMallocArray) or 3-D (cudaMalloc3DArray, extent in elements).
class CudaArray {
 public:
  CudaArray(std::size_t width, std::size_t height) {
    const cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
    CUDA_CHECK(cudaMallocArray(&array_, &desc, width, height));
  }
  explicit CudaArray(cudaExtent extent) {
    const cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
    CUDA_CHECK(cudaMalloc3DArray(&array_, &desc, extent));
  }
  ~CudaArray() { cudaFreeArray(array_); }
  CudaArray(const CudaArray&) = delete;
  CudaArray& operator=(const CudaArray&) = delete;

  cudaArray_t get() const { return array_; }

 private:
  cudaArray_t array_ = nullptr;
};

/// A texture object over `resource`: point sampling of floats at unnormalised coordinates,
/// coordinates outside the image clamped to its border.
class TextureObject {
 public:
  explicit TextureObject(const cudaResourceDesc& resource) {
    cudaTextureDesc texture{};
    texture.addressMode[0] = texture.addressMode[1] = cudaAddressModeClamp;
    texture.filterMode = cudaFilterModePoint;
    texture.readMode = cudaReadModeElementType;
    texture.normalizedCoords = 0;
    CUDA_CHECK(cudaCreateTextureObject(&object_, &resource, &texture, nullptr));
  }
  ~TextureObject() { cudaDestroyTextureObject(object_); }
  TextureObject(const TextureObject&) = delete;
  TextureObject& operator=(const TextureObject&) = delete;

  cudaTextureObject_t get() const { return object_; }

 private:
  cudaTextureObject_t object_ = 0;
};

}  // namespace labbook::lab
