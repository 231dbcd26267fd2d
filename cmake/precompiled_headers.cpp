// The unit that carries labbook's shared precompiled headers (cmake/BuildSpeed.cmake).
