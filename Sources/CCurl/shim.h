// libcurl for the render server's outbound requests (webhook deliveries,
// template images). curl_easy_setopt and curl_easy_getinfo are variadic,
// which Swift cannot call: these give each argument type a function.
#include <curl/curl.h>

static inline CURLcode lamina_curl_set_long(CURL *curl, CURLoption option, long value) {
    return curl_easy_setopt(curl, option, value);
}
static inline CURLcode lamina_curl_set_string(CURL *curl, CURLoption option, const char *value) {
    return curl_easy_setopt(curl, option, value);
}
static inline CURLcode lamina_curl_set_pointer(CURL *curl, CURLoption option, void *value) {
    return curl_easy_setopt(curl, option, value);
}
static inline CURLcode lamina_curl_set_size(CURL *curl, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(curl, option, value);
}
typedef size_t (*lamina_curl_write_callback)(char *data, size_t size, size_t count, void *context);
static inline CURLcode lamina_curl_set_write(CURL *curl, lamina_curl_write_callback callback, void *context) {
    CURLcode code = curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, callback);
    return code != CURLE_OK ? code : curl_easy_setopt(curl, CURLOPT_WRITEDATA, context);
}
static inline long lamina_curl_response_code(CURL *curl) {
    long code = 0;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &code);
    return code;
}
