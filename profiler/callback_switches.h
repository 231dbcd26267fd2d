#pragma once
/// @file
/// Turns a subscriber's CUPTI callbacks on, each result checked: one that fails becomes an
/// issue in the measurement (callback_not_enabled) that names what the run will miss, rather
/// than a run that silently records less.
#include <cstddef>
#include <cstdint>
#include <string>

#include <cupti.h>

#include "issue_log.h"

namespace labbook::profiler {

class CallbackSwitches {
 public:
  using EnableDomain = CUptiResult (*)(std::uint32_t, CUpti_SubscriberHandle, CUpti_CallbackDomain);
  using EnableCallback = CUptiResult (*)(std::uint32_t, CUpti_SubscriberHandle, CUpti_CallbackDomain, CUpti_CallbackId);

  /// `enable_domain` and `enable_callback` are CUPTI's unless a test gives its own.
  CallbackSwitches(CUpti_SubscriberHandle subscriber, IssueLog& issues, EnableDomain enable_domain = cuptiEnableDomain,
                   EnableCallback enable_callback = cuptiEnableCallback)
      : subscriber_(subscriber), issues_(issues), enable_domain_(enable_domain), enable_callback_(enable_callback) {}

  /// Every callback of `domain`; `missed` says what the run lacks if it cannot be had.
  void domain(CUpti_CallbackDomain domain, const char* missed);
  /// One callback of `domain`.
  void callback(CUpti_CallbackDomain domain, CUpti_CallbackId id, const char* missed);
  /// How many of the calls above failed.
  std::size_t failures() const { return failures_; }

 private:
  void check(CUptiResult status, const char* call, const std::string& what, const char* missed);

  CUpti_SubscriberHandle subscriber_;
  IssueLog& issues_;
  EnableDomain enable_domain_;
  EnableCallback enable_callback_;
  std::size_t failures_ = 0;
};

}  // namespace labbook::profiler
