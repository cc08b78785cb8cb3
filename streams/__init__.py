"""groundwire.streams"""
