// The one translation unit that compiles Boost.Asio, Asio's SSL, Beast and Boost.JSON. Every other
// file includes their headers only (BOOST_*_SEPARATE_COMPILATION), which keeps the build fast.
#include <boost/asio/impl/src.hpp>
#include <boost/asio/ssl/impl/src.hpp>
#include <boost/beast/src.hpp>
#include <boost/json/src.hpp>
