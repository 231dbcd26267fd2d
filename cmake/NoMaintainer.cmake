# Run by cpack when the .deb would have no Maintainer (cmake/Install.cmake).
message(FATAL_ERROR "labbook: the .deb needs a Maintainer: set DEBFULLNAME and DEBEMAIL (or git's user.name "
                    "and user.email), or configure with -DLABBOOK_DEB_MAINTAINER=\"Name <email>\"")
