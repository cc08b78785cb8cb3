"""groundwire.topics"""
