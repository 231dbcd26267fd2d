#pragma once
// Tests name quantities as lab files do; this resolves one, failing loudly on a typo.
#include <string>

#include "labbook/model/quantity.h"

inline labbook::Quantity named_quantity(const std::string& name) { return labbook::Quantity::named(name); }
