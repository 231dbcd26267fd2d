#include "nvtx_callbacks.h"

#include <optional>
#include <string>

#include <nvtx3/nvToolsExt.h>
#include <generated_nvtx_meta.h>

namespace labbook::profiler {

namespace {

std::string nvtx_message(const nvtxEventAttributes_t* attr) {
  if (!attr) return "?";
  if (attr->messageType == NVTX_MESSAGE_TYPE_ASCII && attr->message.ascii) return attr->message.ascii;
  return "(unnamed)";
}

/// The number a program attached to a range, whatever its NVTX type; none for no payload.
std::optional<double> nvtx_payload(const nvtxEventAttributes_t* attr) {
  if (!attr) return std::nullopt;
  switch (attr->payloadType) {
    case NVTX_PAYLOAD_TYPE_UNSIGNED_INT64: return static_cast<double>(attr->payload.ullValue);
    case NVTX_PAYLOAD_TYPE_INT64: return static_cast<double>(attr->payload.llValue);
    case NVTX_PAYLOAD_TYPE_DOUBLE: return attr->payload.dValue;
    case NVTX_PAYLOAD_TYPE_UNSIGNED_INT32: return static_cast<double>(attr->payload.uiValue);
    case NVTX_PAYLOAD_TYPE_INT32: return static_cast<double>(attr->payload.iValue);
    case NVTX_PAYLOAD_TYPE_FLOAT: return static_cast<double>(attr->payload.fValue);
    default: return std::nullopt;
  }
}

}  // namespace

void record_nvtx_call(NvtxTracker& nvtx, CUpti_CallbackId cbid, const CUpti_NvtxData& call, std::uint32_t thread,
                      TimestampClock now) {
  switch (cbid) {
    case CUPTI_CBID_NVTX_nvtxRangePushA:
      nvtx.push(thread, static_cast<const nvtxRangePushA_params*>(call.functionParams)->message, now());
      break;
    case CUPTI_CBID_NVTX_nvtxRangePushEx:
    case CUPTI_CBID_NVTX_nvtxDomainRangePushEx: {
      const nvtxEventAttributes_t* attr =
          cbid == CUPTI_CBID_NVTX_nvtxRangePushEx
              ? static_cast<const nvtxRangePushEx_params*>(call.functionParams)->eventAttrib
              : static_cast<const nvtxDomainRangePushEx_params*>(call.functionParams)->core.eventAttrib;
      nvtx.push(thread, nvtx_message(attr), now(), nvtx_payload(attr));
      break;
    }
    case CUPTI_CBID_NVTX_nvtxRangePop:
    case CUPTI_CBID_NVTX_nvtxDomainRangePop: nvtx.pop(thread, now()); break;
    case CUPTI_CBID_NVTX_nvtxRangeStartA:
    case CUPTI_CBID_NVTX_nvtxRangeStartEx:
    case CUPTI_CBID_NVTX_nvtxDomainRangeStartEx: {
      if (!call.functionReturnValue) break;
      const auto id = *static_cast<const nvtxRangeId_t*>(call.functionReturnValue);
      if (cbid == CUPTI_CBID_NVTX_nvtxRangeStartA) {
        nvtx.start(id, thread, static_cast<const nvtxRangeStartA_params*>(call.functionParams)->message, now());
        break;
      }
      const nvtxEventAttributes_t* attr =
          cbid == CUPTI_CBID_NVTX_nvtxRangeStartEx
              ? static_cast<const nvtxRangeStartEx_params*>(call.functionParams)->eventAttrib
              : static_cast<const nvtxDomainRangeStartEx_params*>(call.functionParams)->core.eventAttrib;
      nvtx.start(id, thread, nvtx_message(attr), now(), nvtx_payload(attr));
      break;
    }
    case CUPTI_CBID_NVTX_nvtxRangeEnd:
      nvtx.end(static_cast<const nvtxRangeEnd_params*>(call.functionParams)->id, now());
      break;
    case CUPTI_CBID_NVTX_nvtxDomainRangeEnd:
      nvtx.end(static_cast<const nvtxDomainRangeEnd_params*>(call.functionParams)->core.id, now());
      break;
    default: break;
  }
}

}  // namespace labbook::profiler
